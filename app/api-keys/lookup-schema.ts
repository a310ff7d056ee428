// The leaked-key lookup's input, shared by its page (conform) and apiKey.lookup (oRPC), so the
// length bound and the messages are one rule. The bound is checked before anything else looks at
// the text: a 1 MB paste is refused as it is, never hashed, trimmed or echoed.
import { z } from "zod";
import { errorKey } from "~/lib/error-key";

/** Far above any secret we issue (76 characters; 52 for the older format), far below a paste of a whole file. */
export const LOOKUP_SECRET_MAX = 200;

/** The pasted secret: surrounding whitespace (a copied line break) is forgiven by the lookup itself. */
export const lookupSecretSchema = z
  .string({ error: errorKey("keyLookup.required") })
  .max(LOOKUP_SECRET_MAX, errorKey("keyLookup.tooLong"))
  .refine((value) => value.trim() !== "", errorKey("keyLookup.required"));

export const lookupRpcInputSchema = z.object({ organizationId: z.string().max(64), secret: lookupSecretSchema }).strict();

export const lookupFormSchema = z.object({ secret: lookupSecretSchema });
