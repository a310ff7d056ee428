// The error a domain call was refused with. It fails the test when the call succeeded, or threw
// something other than a DomainError (a crash is not a refusal).
import { expect } from "vitest";
import { DomainError } from "~/lib/domain-error";

export async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => new Error("expected a failure, but the call succeeded"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}
