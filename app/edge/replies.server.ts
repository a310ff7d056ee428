// The answers the request edge gives itself, before any route runs: translated, as JSON for
// programs (oRPC's error shape under /rpc, `{code, message}` elsewhere) and as a small HTML page
// for browsers. They carry no user data, so they are safe to build from the raw request.
import { href } from "react-router";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Language } from "~/i18n/config";
import { fixedT, languageOf } from "~/i18n/i18next.server";
import type { QualifiedKey } from "~/i18n/keys";
import type { ErrorKey } from "~/lib/error-key";
import { safeRedirectPath } from "~/lib/safe-redirect";

type EdgeErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_SUPPORTED"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INTERNAL_SERVER_ERROR"
  | "SERVICE_UNAVAILABLE";

const TITLE_KEYS: Partial<Record<number, QualifiedKey>> = {
  400: "common:errorPage.badRequestTitle",
  // The edge's only 401 is /metrics without its token: not a sign-in matter.
  401: "common:errorPage.forbiddenTitle",
  403: "common:errorPage.forbiddenTitle",
  404: "common:errorPage.notFoundTitle",
  503: "common:unavailable.title",
};

/** The caller's language from the lng cookie and Accept-Language only (no URL parsing needed). */
function languageOfNodeRequest(req: IncomingMessage): Language {
  const { cookie, "accept-language": acceptLanguage } = req.headers;
  return languageOf(cookie, acceptLanguage);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page asked for, kept only when it stays on this origin ("/\\evil.example" would not). */
function retryHref(url: string | undefined): string {
  return safeRedirectPath(url, "/");
}

function htmlPage(status: number, title: string, message: string, link: { href: string; label: string }, language: Language): string {
  const style =
    "body{font-family:system-ui,sans-serif;background:#f8fafc;color:#0f172a;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0}" +
    "main{max-width:28rem;text-align:center;padding:2rem}h1{font-size:1.75rem;margin:.5rem 0}p{color:#475569}a{color:#4f46e5;font-weight:600}";
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${style}</style></head><body><main><p>${status}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p><p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p></main></body></html>`;
}

export interface EdgeReply {
  status: number;
  code: EdgeErrorCode;
  /** Key under `errors:`. */
  messageKey: ErrorKey;
  headers?: Record<string, string>;
  /** Close the connection afterwards (the request line itself was garbage). */
  close?: boolean;
  /** The page offers "Try again" (this address) instead of the way home: the answer is temporary. */
  retry?: boolean;
}

export function sendEdgeReply(req: IncomingMessage, res: ServerResponse, reply: EdgeReply, options: { rpc: boolean }): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const language = languageOfNodeRequest(req);
  const t = fixedT(language);
  const message = t(`errors:${reply.messageKey}`);
  const wantsHtml = !options.rpc && (req.headers.accept ?? "").includes("text/html");
  const link = reply.retry
    ? { href: retryHref(req.url), label: t("common:unavailable.tryAgain") }
    : { href: href("/dashboard"), label: t("common:errorPage.home") };
  const body = wantsHtml
    ? htmlPage(reply.status, t(TITLE_KEYS[reply.status] ?? "common:errorPage.title"), message, link, language)
    : JSON.stringify(
        options.rpc ? { json: { defined: false, code: reply.code, status: reply.status, message } } : { code: reply.code, message },
      );
  res.statusCode = reply.status;
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.setHeader("Content-Type", wantsHtml ? "text/html; charset=utf-8" : "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("Cache-Control", "no-store");
  if (reply.close) res.setHeader("Connection", "close");
  const payload = req.method === "HEAD" ? "" : body;
  if (req.complete) {
    res.end(payload);
  } else {
    // The answer goes out now; the response ends (and the connection may close) once the rest of
    // the upload has been read, so closing cannot reset the connection under the client's feet.
    res.flushHeaders();
    if (payload) res.write(payload);
    discardRestOfBody(req, () => res.end());
  }
}

/** Read and thrown away after an early answer: most over-limit uploads end within this. */
const DISCARD_BUDGET_BYTES = 1024 * 1024;
/** Time for the answer to reach a client that keeps uploading, before the connection is cut. */
const GRACE_MS = 1_000;
const DISCARD_LIMIT_MS = 15_000;

/**
 * An answer given before the body was read (413, 403, 415...) must still reach the client, which
 * is busy uploading. Closing the socket at once would reset the connection and could lose the
 * answer, so the rest of the upload is read and thrown away, up to a small budget (no memory kept
 * beyond socket buffers). A client still sending after that is paused (TCP stops it) and cut off
 * a moment later: its answer is already on the wire.
 */
function discardRestOfBody(req: IncomingMessage, then: () => void): void {
  let discarded = 0;
  const cut = () => req.socket.destroy();
  const limit = setTimeout(cut, DISCARD_LIMIT_MS);
  limit.unref();
  let finished = false;
  const done = () => {
    clearTimeout(limit);
    if (!finished) {
      finished = true;
      then();
    }
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_BUDGET_BYTES) {
      req.off("data", onData);
      req.pause();
      setTimeout(cut, GRACE_MS).unref();
    }
  };
  req.on("data", onData);
  req.once("end", done);
  req.once("close", () => clearTimeout(limit));
  req.resume();
}
