// Loader data that is a long list of plain records, handed to the page as one JSON text.
//
// React Router encodes loader data with turbo-stream, which walks every value (each object, key
// and string of every row) in JavaScript to dedupe and type them: for the keys page's 35 rows that
// walk cost the server more than rendering the rows' details (docs/decisions/0064-keys-page-weight.md).
// JSON.stringify does the same rows natively in a fraction of that, and turbo-stream then carries
// one string (escaped for the page's script like any other). The page reads it back with
// `useJsonPayload`, once per render of the data. Only for values JSON keeps as they are: the type
// refuses Dates, undefined, functions and the like, which JSON would change or drop.
import { useMemo } from "react";

declare const payloadOf: unique symbol;

/** JSON text of a T, typed so that only `readJsonPayload` turns it back into one. */
export type JsonPayload<T> = string & { readonly [payloadOf]: T };

/** What JSON.parse(JSON.stringify(value)) gives back unchanged. */
type JsonSafe<T> = T extends string | number | boolean | null
  ? T
  : T extends readonly (infer Item)[]
    ? readonly JsonSafe<Item>[]
    : T extends Date | bigint | symbol | undefined | ((...args: never[]) => unknown)
      ? never
      : { [K in keyof T]: JsonSafe<T[K]> };

export function toJsonPayload<T>(value: T & JsonSafe<T>): JsonPayload<T> {
  return JSON.stringify(value) as JsonPayload<T>;
}

export function readJsonPayload<T>(payload: JsonPayload<T>): T {
  return JSON.parse(payload) as T;
}

/** The payload's value, parsed again only when the payload changes (a new load of the page). */
export function useJsonPayload<T>(payload: JsonPayload<T>): T {
  return useMemo(() => readJsonPayload(payload), [payload]);
}
