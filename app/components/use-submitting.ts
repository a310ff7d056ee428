// Whether a form's submission is on its way: the action has not answered yet. Not "any navigation":
// after the action answers, the page reloads its data (state "loading"), and a submit button
// disabled through that reload swallows the next Enter in a form people use again at once (paste
// the next secret, invite the next person). React Router cancels that reload for a new submission
// and reloads after it, so nothing is lost by letting it through.
import { useNavigation } from "react-router";

export function useSubmitting(): boolean {
  return useNavigation().state === "submitting";
}
