import { Alert } from "./ui";

/** Form-level errors arrive translated from the server. */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  if (!errors?.length) return null;
  return (
    <div id={id}>
      <Alert tone="error">{errors.join(" ")}</Alert>
    </div>
  );
}
