// Account security: two-factor authentication and recovery codes. Thin: the rules live in
// app/auth/two-factor.server.ts, the page in app/auth/ui/two-factor-settings.tsx.
import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/dashboard.account.security";
import { totpCodeSchema } from "~/auth/schemas";
import {
  beginEnrollment,
  confirmEnrollment,
  disableTwoFactor,
  pendingEnrollment,
  regenerateRecoveryCodes,
  unusedRecoveryCodeCount,
} from "~/auth/two-factor.server";
import { TwoFactorSettings, type TwoFactorActionData } from "~/auth/ui/two-factor-settings";
import { ErrorPanel } from "~/components/error-page";
import { titleMeta } from "~/components/page-title";
import { translatorFor } from "~/i18n/i18next.server";
import { parseForm, withFormErrors } from "~/web/forms.server";
import { requireUser } from "~/web/guards.server";

export function meta({ loaderData }: Route.MetaArgs) {
  return titleMeta(loaderData?.title);
}

export async function loader(args: Route.LoaderArgs) {
  const auth = requireUser(args);
  return {
    title: translatorFor(args.context)("twoFactor:title"),
    enabled: auth.user.twoFactorEnabled,
    recoveryCodesLeft: auth.user.twoFactorEnabled ? await unusedRecoveryCodeCount(auth.user.id) : 0,
  };
}

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("begin") }),
  z.object({ intent: z.literal("confirm"), code: totpCodeSchema }),
  z.object({ intent: z.literal("disable"), code: totpCodeSchema }),
  z.object({ intent: z.literal("regenerate"), code: totpCodeSchema }),
]);

export async function action(args: Route.ActionArgs) {
  const auth = requireUser(args);
  const { submission, formData } = await parseForm(args, schema);
  const intent = String(formData.get("intent") ?? "");
  // The code is never sent back: the page does not refill it, and an answer should not repeat it.
  const hideFields = ["code"];
  // A failed confirmation shows the same QR code again.
  const enrollmentIfPending = async () => (intent === "confirm" && !auth.user.twoFactorEnabled ? pendingEnrollment(auth) : undefined);
  if (submission.status !== "success") {
    return data<TwoFactorActionData>(
      { intent, enrollment: await enrollmentIfPending(), reply: submission.reply({ hideFields }) },
      { status: 400 },
    );
  }
  const value = submission.value;
  const result = await withFormErrors(
    args.context,
    submission,
    async (): Promise<TwoFactorActionData> => {
      switch (value.intent) {
        case "begin":
          return { intent: "confirm", enrollment: await beginEnrollment(auth) };
        case "confirm":
          return { intent: "done", recoveryCodes: await confirmEnrollment(auth, value.code) };
        case "disable":
          await disableTwoFactor(auth, value.code);
          return { intent: "disabled", disabled: true };
        case "regenerate":
          return { intent: "done", recoveryCodes: await regenerateRecoveryCodes(auth, value.code) };
      }
    },
    { hideFields },
  );
  if (!result.ok) return data<TwoFactorActionData>({ intent, enrollment: await enrollmentIfPending(), reply: result.reply }, result.init);
  return data<TwoFactorActionData>(result.value);
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  return <TwoFactorSettings loaderData={loaderData} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorPanel error={error} />;
}
