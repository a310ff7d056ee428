// The 405 answer's parts, for the request edge (methods no route takes) and for the endpoints that
// take one method only: the same code, message and Allow header wherever it is refused.

/** A refusal of the request's method, naming the methods that are allowed. */
export function methodNotAllowed(allowed: readonly string[]) {
  return {
    status: 405,
    code: "METHOD_NOT_SUPPORTED",
    messageKey: "methodNotAllowed",
    headers: { Allow: allowed.join(", ") },
  } as const;
}
