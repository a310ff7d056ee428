// `Content-Disposition: attachment` with a file name that survives any browser (RFC 6266): a
// plain ASCII `filename` for old clients and the exact name, UTF-8 and percent-encoded, in
// `filename*` (RFC 8187), which every current browser prefers.
export function attachmentDisposition(fileName: string): string {
  const ascii =
    fileName
      .normalize("NFKD")
      .replace(/[^\x20-\x7e]/g, "")
      .replace(/["\\/:*?<>|%;\s]+/g, "_") || "download";
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
