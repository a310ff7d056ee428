// The stream pages' forms, read by conform in the browser and by the actions on the server, so a
// rule lives once. Without JavaScript the create form carries every kind's fields, each kind in its
// own group (`webhook.url`, `splunk.token`, …): only the chosen kind's group is read and checked,
// and its errors point at its own fields. Field rules are the destination schemas'
// (destinations.ts); this file adds only what the pages add: the kind choice, the start choice,
// the version an edit was made against, and "a credential left empty keeps the stored one".
import { z } from "zod";
import { errorKey } from "~/lib/error-key";
import { replayFrom, type StreamStart } from "~/audit-streams/stream-start";
import {
  CREDENTIAL_FIELDS,
  STREAM_KINDS,
  destinationSchemas,
  streamNameSchema,
  type DestinationInput,
  type StreamKind,
} from "./destinations";

const startFields = {
  start: z.enum(["now", "date"], { error: errorKey("field.invalidChoice") }).default("now"),
  startDate: z.string().optional(),
};

/** The start choice as the service takes it; a missing or refused day is the date field's error
 * (stream-start.ts: a real day, from 2000 to today). */
function readStart(value: { start: "now" | "date"; startDate?: string | undefined }, ctx: z.RefinementCtx): StreamStart | null {
  if (value.start === "now") return { from: "now" };
  if (!value.startDate || replayFrom(value.startDate) === null) {
    const key = value.startDate ? "auditStreamChange.startDateInvalid" : "field.required";
    ctx.addIssue({ code: "custom", path: ["startDate"], message: errorKey(key) });
    return null;
  }
  return { from: "date", date: value.startDate };
}

/** A kind's own fields (everything but `kind`), as its form group sends them. */
function kindFields(kind: StreamKind): z.ZodObject {
  // Each kind's schema is a strict object; only its shape differs, which the page does not need.
  return (destinationSchemas[kind] as z.ZodObject).omit({ kind: true });
}

/** The kinds' yes-or-no settings, which the forms show as checkboxes. */
const CHECKBOXES = new Set(["forcePathStyle"]);

/**
 * Checks one group of fields, reporting its issues under the group's name (`webhook.url`). conform
 * turns an empty field into "not given" only where it sees a string schema, and a group is read
 * as a whole here, so this does the same: an empty field is a field left out (an optional setting
 * unset, a credential kept), and a required one left out says so.
 */
function readGroup<T>(schema: z.ZodType<T>, value: unknown, group: string, ctx: z.RefinementCtx): T | null {
  const given = Object.fromEntries(
    Object.entries(value !== null && typeof value === "object" ? value : {})
      .filter(([, field]) => field !== "")
      // A ticked checkbox sends "on" (unticked sends nothing).
      .map(([name, field]) => [name, CHECKBOXES.has(name) && field === "on" ? true : field]),
  );
  const parsed = schema.safeParse(given);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    const missing = issue.code === "invalid_type" && issue.path.length === 1 && given[String(issue.path[0])] === undefined;
    ctx.addIssue({
      code: "custom",
      path: [group, ...issue.path.map(String)],
      message: missing ? errorKey("field.required") : issue.message,
    });
  }
  return null;
}

export const createStreamFormSchema = z
  .object({
    intent: z.literal("create"),
    name: streamNameSchema,
    kind: z.enum(STREAM_KINDS, { error: errorKey("auditStreamChange.kindUnknown") }),
    webhook: z.unknown().optional(),
    splunk: z.unknown().optional(),
    datadog: z.unknown().optional(),
    s3: z.unknown().optional(),
    ...startFields,
  })
  .transform((value, ctx) => {
    const fields = readGroup(kindFields(value.kind), value[value.kind], value.kind, ctx);
    const start = readStart(value, ctx);
    if (!fields || !start) return z.NEVER;
    return { name: value.name, start, destination: { kind: value.kind, ...fields } as DestinationInput };
  });

/**
 * Editing a stream of a known kind: its name and fields, credentials optional (left empty, the
 * stored one is kept), and the version the page showed, so a change made meanwhile by someone
 * else is refused rather than overwritten.
 */
export function editStreamFormSchema(kind: StreamKind) {
  const credentials = Object.fromEntries(CREDENTIAL_FIELDS[kind].map((field) => [field, true as const]));
  const fields = kindFields(kind).partial(credentials);
  const settingFields = Object.keys(fields.shape).filter((field) => !(field in credentials));
  return z
    .object({
      intent: z.literal("update"),
      version: z.coerce
        .number({ error: errorKey("field.invalid") })
        .int()
        .min(1),
      name: streamNameSchema,
      destination: z.unknown().optional(),
    })
    .transform((value, ctx) => {
      const read = readGroup(fields, value.destination, "destination", ctx);
      if (!read) return z.NEVER;
      // The service keeps a setting left out; on this form an emptied field or an unticked box
      // means "unset", so every setting the form shows is sent ("" clears it, false unticks).
      const destination: Record<string, unknown> = { ...(read as Record<string, unknown>) };
      for (const field of settingFields) destination[field] ??= CHECKBOXES.has(field) ? false : "";
      return { version: value.version, name: value.name, destination };
    });
}

/** The delivery page's other forms: each carries the version it was shown with. */
const version = z.coerce
  .number({ error: errorKey("field.invalid") })
  .int()
  .min(1);

export const streamActionFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["pause", "resume", "test", "delete"]), version }),
  z.object({ intent: z.literal("restart"), version, ...startFields }).transform((value, ctx) => {
    const start = readStart(value, ctx);
    return start ? { intent: value.intent, version: value.version, start } : z.NEVER;
  }),
]);

/** The delivery page's forms, by intent. */
export const STREAM_PAGE_INTENTS = ["update", "pause", "resume", "test", "restart", "delete"] as const;
export type StreamPageIntent = (typeof STREAM_PAGE_INTENTS)[number];
