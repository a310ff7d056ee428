import { Transform } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { i18n as I18n } from "i18next";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { ServerRouter, isRouteErrorResponse, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from "react-router";
import { NonceProvider } from "~/components/nonce";
import { cspNonceContext, requestLogContext } from "~/web/context.server";
import { disconnectDb, reportIdleClientErrorsTo } from "~/db.server";
import { createRequestEdge } from "~/edge/request-edge.server";
import type { ServerHooks } from "~/edge/server-hooks";
import { documentContentSecurityPolicy } from "~/edge/security-headers";
import { getInstance, standaloneInstance, languageFromHeaders } from "~/i18n/i18next.server";
import { supportedLanguages } from "~/i18n/config";
import { formatsFor } from "~/components/use-formats";
import { warmUp } from "~/web/warm-up.server";
import { startWorker } from "~/jobs/queue.server";
import { beginDraining, endStreams, setWorkerRunning, streamsRunning } from "~/lib/lifecycle.server";
import { databaseUnavailableReason } from "~/lib/database-unavailable.server";
import { flushLogs, logRequestError, logger } from "~/lib/logger.server";
import { mailOutboxDir } from "~/mail/mailer.server";
import { organizationTasks } from "~/organizations/tasks.server";
import { accountTasks } from "~/accounts/tasks.server";
import { auditCronItems, auditTasks } from "~/audit/rollup-catch-up.server";
import { auditStreamTasks, startPump } from "~/audit-streams/delivery/tasks.server";
import { expiryReminderCron, expiryReminderTasks } from "~/expiry-reminders/tasks.server";
import { secretScanningTasks } from "~/secret-scanning/tasks.server";
import { auditDigestTasks, startAuditDigests } from "~/audit-integrity/tasks.server";

// A pooled connection that fails while idle (the database restarted) is told in the JSON log.
// An idle connection the database dropped (an outage, a restart) is expected and told once as a
// warning with its reason; anything else is an error. Never the error object itself: pg hangs the
// whole client (its configuration included) on it.
reportIdleClientErrorsTo((pool, error) => {
  const summary = { pool, message: error.message, code: (error as { code?: unknown }).code };
  const reason = databaseUnavailableReason(error);
  if (reason) logger.warn({ ...summary, reason }, "idle database connection lost");
  else logger.error(summary, "idle database connection failed");
});

/** What the servers in server/ take from the bundle (app/edge/server-hooks.ts). */
export const serverHooks: ServerHooks = {
  createRequestEdge,
  warmUp: async (build) => {
    // The date formatters build their Intl objects (and load ICU's data) on first use.
    for (const language of supportedLanguages) formatsFor(language);
    await warmUp(build);
  },
  startWorker: async () => {
    const runner = await startWorker(
      {
        ...organizationTasks,
        ...accountTasks,
        ...auditTasks,
        ...auditStreamTasks,
        ...expiryReminderTasks,
        ...secretScanningTasks,
        ...auditDigestTasks,
      },
      logger,
      [...(await auditCronItems()), ...expiryReminderCron],
    );
    setWorkerRunning(true);
    // The audit streams' pump queues deliveries while this process runs jobs (it skips its ticks
    // once the process drains) and stops with the worker.
    const stopPump = startPump(logger);
    // The audit digests' schedule likewise (no signing key: one warning, no ticks).
    const stopDigests = startAuditDigests(logger);
    // However the worker ends (stopped, or failed), /readyz says so from then on, and the pump stops.
    const ended = () => {
      setWorkerRunning(false);
      void stopPump();
      void stopDigests();
    };
    void runner.promise.then(ended, ended);
    return runner;
  },
  mailOutboxDir,
  disconnectDb,
  logger,
  flushLogs,
  lifecycle: { beginDraining, endStreams, streamsRunning },
};

export const streamTimeout = 5_000;

/**
 * The page's bytes, joined into one piece per burst of rendering. React writes HTML in 2 KB
 * pieces and tells its destination when a burst is complete by calling its `flush()`; carrying
 * each piece on its own through the web stream and onto the socket cost as much as rendering a
 * list row (a 100 KB audit page is about 50 pieces), so the pieces wait here until then.
 */
function joiningBursts(onEnd: () => void): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      size += chunk.length;
      callback();
    },
    flush(callback) {
      release();
      onEnd();
      callback();
    },
  });
  function release() {
    if (size === 0) return;
    stream.push(pending.length === 1 ? pending[0] : Buffer.concat(pending, size));
    pending = [];
    size = 0;
  }
  // Called by React after each burst of writes (react-dom/server's flushBuffered).
  return Object.assign(stream, { flush: release });
}

/** The request's i18next instance; a request that failed before the i18n middleware ran (e.g. a
 * method no route accepts) still renders its error page in the caller's language. */
function i18nFor(request: Request, loadContext: RouterContextProvider): I18n {
  try {
    return getInstance(loadContext);
  } catch {
    return standaloneInstance(languageFromHeaders(request.headers));
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(cspNonceContext);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Aborts a render that outlives the stream timeout; cleared when the stream ends, so a finished
    // response does not keep its render alive for seconds (as React Router's default entry does).
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const userAgent = request.headers.get("user-agent");
    // Crawlers and no-JS clients get the whole document at once; browsers get it streamed.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nextProvider i18n={i18nFor(request, loadContext)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </NonceProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = joiningBursts(() => clearTimeout(timer));
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("Content-Security-Policy", documentContentSecurityPolicy(nonce));
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logRequestError(loadContext.get(requestLogContext), error, "render failed");
        },
      },
    );
  });
}

/** Errors thrown by loaders, actions and rendering. Refusals (4xx: a 404, a 405 for a method a route
 * does not take) are answers, not errors; only the unexpected is logged, with the request id. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  logRequestError(context.get(requestLogContext), error, "route failed");
};
