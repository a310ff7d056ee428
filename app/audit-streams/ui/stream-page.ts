// Shared by the stream pages' parts: their paths, how a state and a lag read, and the actions'
// typed answers.
import { href } from "react-router";
import type { SubmissionResult } from "@conform-to/react";
import type { SendResult } from "~/audit-streams/outbound/send-result";
import type { StreamState } from "~/audit-streams/destinations";

export const STREAMS_PAGE_PATH = href("/dashboard/organization-settings/audit-streams");
export const streamPagePath = (streamId: string) => href("/dashboard/organization-settings/audit-streams/:streamId", { streamId });

/** The create form's name field: "Add a stream" links here, which focuses it (as the keys page does). */
export const CREATE_STREAM_NAME_ID = "create-stream-name";

/** Why delivery is off for the whole organization (the plan, or billing pausing paid features). */
export type StreamingBlocker = "plan" | "billing" | null;

/** What the list and the delivery page call a stream's state: "blocked" while the organization cannot stream. */
export type ShownState = StreamState | "blocked";

export function shownState(state: StreamState, blocker: StreamingBlocker): ShownState {
  return blocker && state !== "paused" ? "blocked" : state;
}

export function stateTone(state: ShownState) {
  return state === "active" ? "green" : state === "failing" ? "red" : state === "blocked" ? "amber" : "slate";
}

/** A lag in the largest whole unit that fits: "45 s", "12 min", "3 h", "2 d"; an event waiting
 * less than a second is "1 s" (only no lag at all reads "up to date"). */
export function lagParts(seconds: number): { unit: "seconds" | "minutes" | "hours" | "days"; count: number } {
  if (seconds < 60) return { unit: "seconds", count: Math.max(1, Math.floor(seconds)) };
  if (seconds < 3600) return { unit: "minutes", count: Math.floor(seconds / 60) };
  if (seconds < 86_400) return { unit: "hours", count: Math.floor(seconds / 3600) };
  return { unit: "days", count: Math.floor(seconds / 86_400) };
}

/** The list page's action: the new stream, and its signing secret (webhooks only), shown once. */
export interface StreamListActionData {
  reply: SubmissionResult<string[]>;
  created: { streamId: string; name: string; secret: string | null } | null;
}

/** What a delivery page action reports when it went through. */
export type StreamPageOutcome = { intent: "update" | "pause" | "resume" | "restart" } | { intent: "test"; result: SendResult };

export interface StreamPageActionData {
  reply: SubmissionResult<string[]>;
  /** Which form was submitted, so its errors show beside it. */
  intent: string | null;
  outcome: StreamPageOutcome | null;
  /** Someone changed the stream since the page was shown: the page shows what is stored now. */
  conflict?: boolean;
}
