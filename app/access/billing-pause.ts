// Which billing states pause paid features (docs/contract.md, Plans and billing states;
// docs/decisions/0029-billing.md). `active` and `past_due` (one failed payment) keep them;
// `past_due_blocked` (a second failed payment) and `canceled` pause them: the export answers 409
// until the state is `active` again. The states themselves are the database's enum.
import { BillingState } from "~/generated/prisma/enums";

const PAUSING: ReadonlySet<BillingState> = new Set([BillingState.past_due_blocked, BillingState.canceled]);

export function billingBlocksPaidFeatures(billingState: BillingState): boolean {
  return PAUSING.has(billingState);
}
