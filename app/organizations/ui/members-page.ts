// Shared by the members page's parts: its path, and the action's typed answer.
import { href } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { Role } from "~/generated/prisma/enums";

export const MEMBERS_PAGE_PATH = href("/dashboard/organization-settings/members");

/** What a successful action reports, for the page's confirmation message. */
export type MemberActionOutcome =
  | { intent: "invite"; email: string; created: boolean }
  | { intent: "resend" | "cancel"; email: string }
  | { intent: "role"; name: string; role: Role; changed: boolean }
  | { intent: "remove"; name: string };

export interface MemberActionData {
  reply: SubmissionResult<string[]>;
  /** Which form was submitted, so its errors show beside it. */
  intent: string | null;
  outcome: MemberActionOutcome | null;
}
