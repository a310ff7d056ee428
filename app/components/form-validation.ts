// How our forms check their input in the browser (conform), for forms that share the policy below.
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";

/**
 * useForm's validation options: the schema (the same one the action parses with) checks the form
 * when it is submitted, then each field again as it is typed in. Not on blur: a message appearing
 * when a field loses focus moved the button under a finger on phones between press and release.
 */
export function validateOnSubmit<Schema extends z.ZodType>(schema: Schema) {
  return {
    onValidate: ({ formData }: { formData: FormData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  } as const;
}
