// auditStream.* (docs/contract.md): owners and admins manage their organization's audit streams.
// Thin: the input's shape here (a 400 before any access check), every rule in the service
// (app/audit-streams/streams.server.ts), which also refuses changes while the plan lacks
// streaming or billing pauses paid features (403).
import { z } from "zod";
import { destinationWith, streamNameSchema } from "~/audit-streams/destinations";
import { streamStartSchema } from "~/audit-streams/stream-start";
import { createStream, deleteStream, listStreams, testStream, updateStream, type StreamView } from "~/audit-streams/streams.server";
import { errorKey } from "~/lib/error-key";
import { organizationProcedure } from "./organization-procedure.server";

const organizationId = z.string().max(64);
const streamIdInput = z.object({ organizationId, streamId: z.string().max(64) }).strict();

/** A kind's field as an edit may send it: the stream's own schema checks it in the service. */
const field = z.string().max(4096, errorKey("field.tooLong"));

/** Every kind's fields, optional: which belong to the stream's kind is the service's check (a
 * field of another kind is refused there as unexpected). */
const destinationFields = {
  kind: z.string().max(32).optional(),
  url: field.optional(),
  secret: field.optional(),
  token: field.optional(),
  index: field.optional(),
  sourcetype: field.optional(),
  apiKey: field.optional(),
  service: field.optional(),
  tags: field.optional(),
  endpoint: field.optional(),
  region: field.optional(),
  bucket: field.optional(),
  prefix: field.optional(),
  forcePathStyle: z.boolean().optional(),
  accessKeyId: field.optional(),
  secretAccessKey: field.optional(),
};

const createInput = destinationWith({ organizationId, name: streamNameSchema, start: streamStartSchema.optional() });

const updateInput = z
  .object({
    organizationId,
    streamId: z.string().max(64),
    version: z.number().int().min(1).max(2_147_483_647),
    name: streamNameSchema.optional(),
    paused: z.boolean().optional(),
    start: streamStartSchema.optional(),
    ...destinationFields,
  })
  .strict();

/** A stream in answers: dates as ISO 8601, as every procedure gives them. */
function streamJson(view: StreamView) {
  return {
    ...view,
    createdAt: view.createdAt.toISOString(),
    lastDeliveredAt: view.lastDeliveredAt?.toISOString() ?? null,
    failingSince: view.failingSince?.toISOString() ?? null,
    nextAttemptAt: view.nextAttemptAt?.toISOString() ?? null,
    deliverFrom: view.deliverFrom?.toISOString() ?? null,
  };
}

const streamManager = organizationProcedure("auditStream:manage");

export const auditStream = {
  list: streamManager.input(z.object({ organizationId }).strict()).handler(async ({ context }) =>
    (await listStreams(context.access)).map((view) => ({
      id: view.id,
      name: view.name,
      kind: view.kind,
      state: view.state,
      createdAt: view.createdAt.toISOString(),
      lastDeliveredAt: view.lastDeliveredAt?.toISOString() ?? null,
      lagSeconds: view.lagSeconds,
    })),
  ),
  create: streamManager.input(createInput).handler(async ({ context, input }) => {
    const { organizationId: _organization, ...stream } = input;
    const created = await createStream(context.access, stream);
    return { stream: streamJson(created.stream), secret: created.secret };
  }),
  update: streamManager.input(updateInput).handler(async ({ context, input }) => {
    const { organizationId: _organization, streamId, version, name, paused, start, ...fields } = input;
    const destination = Object.keys(fields).length > 0 ? fields : undefined;
    return streamJson(await updateStream(context.access, streamId, { version, name, paused, start, destination }));
  }),
  delete: streamManager.input(streamIdInput).handler(async ({ context, input }) => {
    await deleteStream(context.access, input.streamId);
    return {};
  }),
  test: streamManager.input(streamIdInput).handler(({ context, input }) => testStream(context.access, input.streamId)),
};
