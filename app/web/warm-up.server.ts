// What the server does once at start, before it listens, so that its first requests cost what later
// ones do (docs/decisions/0042-pages-at-dashboard-speed.md). Without it the first signed-in page
// after a start took 35-210 ms instead of 5: a new database connection per query, Prisma's query
// compiler loaded from WebAssembly, the Intl formatters and ICU data built, and React, React Router
// and i18next run for the first time (V8 compiles a function's bytecode the first time it runs).
//
// Nothing here writes: the pages it renders are the sign-in page (in each language, with a session
// cookie that names no session, so the session read runs and finds nothing), answered as any
// anonymous visitor would be.
import { createRequestHandler, type ServerBuild } from "react-router";
import { sessionCookieName } from "~/auth/cookies.server";
import { warmDatabase } from "~/db.server";
import { env } from "~/env.server";
import { supportedLanguages } from "~/i18n/config";
import { createLoadContext } from "~/web/context.server";

/** Connections opened at start and kept while idle: as many as one page load uses at once (the
 * shell's and the page's reads run in parallel), the rest open on demand under load. */
const WARM_CONNECTIONS = 4;

/** A session token of the right shape that names no session (its SHA-256 is stored nowhere). */
const UNKNOWN_SESSION = "a".repeat(32);

/** Renders a page once through React Router, as the request edge would, and reads its answer. */
async function renderOnce(build: ServerBuild, path: string, language: string): Promise<void> {
  const handle = createRequestHandler(build, "production");
  const url = new URL(path, env().APP_ORIGIN ?? "http://localhost");
  const request = new Request(url, {
    headers: { accept: "text/html", "accept-language": language, cookie: `${sessionCookieName()}=${UNKNOWN_SESSION}` },
  });
  const context = createLoadContext({
    clientAddress: "warm-up",
    cspNonce: "warm-up",
    requestLog: { requestId: "warm-up", method: "GET", path },
  });
  const response = await handle(request, context);
  await response.arrayBuffer();
}

/** Opens the pool's first connections and renders the sign-in page in every language. */
export async function warmUp(build: ServerBuild): Promise<void> {
  await warmDatabase(Math.min(WARM_CONNECTIONS, env().DATABASE_POOL_SIZE));
  for (const language of supportedLanguages) await renderOnce(build, "/login", language);
}
