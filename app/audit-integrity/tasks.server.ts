// The audit digests' background job, by name, for the worker (app/jobs), and the schedule that
// queues it (started and stopped with the worker, app/entry.server.tsx).
import type { TaskList } from "graphile-worker";
import type { Logger } from "pino";
import { z } from "zod";
import { env, type Env } from "~/env.server";
import { taskWithPayload } from "~/jobs/queue.server";
import { SEAL_DIGEST_TASK, startDigestSchedule } from "./digest-schedule.server";
import { sealOrganization } from "./seal.server";
import { whileSealing } from "./sealing-lock.server";
import { currentSigningKey } from "./signing-keys";

/** PostgreSQL's foreign key violation: the organization was deleted while its digest was made. */
const FOREIGN_KEY_VIOLATION = "23503";

const payloadSchema = z.object({ organizationId: z.uuid() });

export const auditDigestTasks: TaskList = {
  [SEAL_DIGEST_TASK]: taskWithPayload("audit digest", payloadSchema, async ({ organizationId }, helpers) => {
    // Queued before a restart without the key: nothing to sign with, and nothing is lost (the next
    // digest, once a key is configured, takes every event since the last one).
    const key = currentSigningKey();
    if (!key) return;
    try {
      const sealed = await whileSealing(organizationId, () => sealOrganization(organizationId, key));
      // null: another live writer holds the organization's sealing lock and is at it.
      if (sealed && sealed.digests > 0) helpers.logger.debug(`audit digests written: ${sealed.digests} (${sealed.events} events)`);
    } catch (error) {
      // Gone with its organization: there is nothing left to seal.
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return;
      throw error;
    }
  }),
};

/**
 * Starts the digest schedule in a process that runs the job worker; the returned function stops it.
 * No signing key: no ticks, and one warning that the audit log is not sealed.
 */
export function startAuditDigests(
  logger: Pick<Logger, "warn" | "error">,
  config: Pick<Env, "AUDIT_SIGNING_KEY" | "AUDIT_DIGEST_INTERVAL"> = env(),
): () => Promise<void> {
  if (!currentSigningKey(config)) {
    logger.warn(
      "AUDIT_SIGNING_KEY is not set: the audit log is not sealed (no digests are written; README, Configuration and docs/audit-digests.md)",
    );
    return async () => undefined;
  }
  return startDigestSchedule(logger, { intervalSeconds: config.AUDIT_DIGEST_INTERVAL });
}
