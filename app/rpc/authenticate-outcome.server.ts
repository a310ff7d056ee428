// apiKey.authenticate's outcomes for the metrics (keyledger_authenticate_total): ok, unauthorized
// (unknown, expired, revoked, malformed or missing key: the one 401) and forbidden (a requested
// scope not held). Input errors (400) and failures of ours are none of these and are not counted.
import { isDomainError } from "~/lib/domain-error";
import { countAuthentication } from "~/metrics/instruments.server";

/** `authentication`'s result, counted by outcome. */
export function countedAuthentication<T>(authentication: Promise<T>): Promise<T> {
  return authentication.then(
    (result) => {
      countAuthentication("ok");
      return result;
    },
    (error: unknown) => {
      if (isDomainError(error) && error.code === "UNAUTHORIZED") countAuthentication("unauthorized");
      if (isDomainError(error) && error.code === "FORBIDDEN") countAuthentication("forbidden");
      throw error;
    },
  );
}

/** A request refused before the database: no key, or one that is not well formed. */
export function countMalformedKey(): void {
  countAuthentication("unauthorized");
}
