// The route family a request is counted under in the request metrics: a small fixed set, so the
// number of series stays bounded whatever callers send. Never the path itself (ids live there),
// never anything a caller chose: an /rpc path names its procedure only when the router has it.
import { RPC_PREFIX } from "~/rpc/handler.server";
import { procedurePaths } from "~/rpc/procedure-paths.server";

export const METRICS_PATH = "/metrics";
const HEALTH_PATHS = new Set(["/healthz", "/ping", "/livez", "/readyz"]);
/** Files the build serves besides /assets/ (public/: the icon, robots.txt). */
const PUBLIC_FILE = /^\/[\w.-]+\.(?:ico|png|svg|txt|webmanifest|xml)$/;

/** A classifier for the router's procedures: `rpc.<namespace>.<procedure>`, `rpc.unknown`,
 * `page`, `data` (a page's loader data), `api` (/api/…: logos, export, provider events), `asset`,
 * `health`, `metrics`, or `other` (a request whose target could not be read). */
export function routeFamilyClassifier(): (path: string) => string {
  const procedures = new Map(procedurePaths().map((path) => [`${RPC_PREFIX}/${path}`, `rpc.${path.replaceAll("/", ".")}`]));
  return (path) => {
    if (path.startsWith(`${RPC_PREFIX}/`)) return procedures.get(path) ?? "rpc.unknown";
    if (!path.startsWith("/")) return "other";
    if (path.startsWith("/assets/") || PUBLIC_FILE.test(path)) return "asset";
    if (path.startsWith("/api/")) return "api";
    if (path.endsWith(".data")) return "data";
    if (HEALTH_PATHS.has(path)) return "health";
    if (path === METRICS_PATH) return "metrics";
    return "page";
  };
}
