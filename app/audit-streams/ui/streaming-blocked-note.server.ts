// What the stream pages say when the organization cannot stream: which reason (streamingBlocker),
// the plans that include streaming, and whether the viewer may open the billing page.
import { accessFor } from "~/access/organization-access.server";
import { planName, planNamesWith } from "~/plans/catalog";
import { streamingBlocker, type StreamManager } from "~/audit-streams/streams.server";
import type { StreamingBlockedNote } from "./streaming-blocked";

export function streamingBlockedNote(access: StreamManager): StreamingBlockedNote | null {
  const blocker = streamingBlocker(access);
  const billingLink = accessFor(access, "billing:view") !== null;
  if (blocker === "plan")
    return { blocker, planName: planName(access.organization.planId), streamingPlans: planNamesWith("auditStreaming"), billingLink };
  if (blocker === "billing") return { blocker, billingLink };
  return null;
}
