// Reading an uploaded file from a request: the `field` of a multipart form, or else the raw body.
// The request edge has already capped the body's size, so reading it whole is bounded.

/** The uploaded bytes; null when nothing was sent. A broken multipart body is a 400, not a 500. */
export async function uploadedBytes(request: Request, field: string): Promise<Uint8Array | null> {
  const contentType = request.headers.get("content-type") ?? "";
  if (/^multipart\/form-data/i.test(contentType)) {
    const form = await request.formData().catch(() => null);
    const file = form?.get(field);
    if (!file || typeof file === "string" || file.size === 0) return null;
    return new Uint8Array(await file.arrayBuffer());
  }
  const body = new Uint8Array(await request.arrayBuffer());
  return body.byteLength > 0 ? body : null;
}
