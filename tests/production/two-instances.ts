// Two production servers on one database, as a load balancer in front of two app instances sees
// them (tests/production/many-instances.test.ts): each its own process, port, pools, worker and
// mail folder; everything they share goes through PostgreSQL. Requests are spread over both the
// way a round-robin balancer would, and fired at once.
import type { ParsedMail } from "mailparser";
import { mailsTo } from "./outbox.ts";
import { startProductionServer, type ProductionServer } from "./production-server.ts";

/** What each instance calls its connections (PGAPPNAME), to find them in pg_stat_activity. */
export const INSTANCE_NAMES = ["keyledger-instance-a", "keyledger-instance-b"] as const;

/** Starts both at the same moment (their start-ups race too: migrations, the job queue's schema). */
export async function startTwoInstances(databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<ProductionServer[]> {
  const started = await Promise.allSettled(INSTANCE_NAMES.map((name) => startProductionServer(databaseUrl, { ...env, PGAPPNAME: name })));
  const servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failed = started.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(servers.map((server) => server.stop()));
    throw failed.reason;
  }
  return servers;
}

/** `count` requests at once, the i-th to instance i mod 2 (a round-robin balancer). */
export function acrossBoth<T>(servers: ProductionServer[], count: number, send: (server: ProductionServer, i: number) => Promise<T>) {
  return Promise.all(Array.from({ length: count }, (_, i) => send(servers[i % servers.length]!, i)));
}

const sameOrigin = (server: ProductionServer) => ({ Origin: server.origin, "Sec-Fetch-Site": "same-origin" });

export interface ProcedureAnswer {
  status: number;
  headers: Headers;
  json: Record<string, unknown> & { code?: string; message?: string };
}

/** A procedure at /rpc of `server`, called as the app's own pages call it (session cookie, same origin). */
export async function procedure(
  server: ProductionServer,
  path: string,
  input: unknown,
  credentials: { cookie?: string; authorization?: string },
): Promise<ProcedureAnswer> {
  const response = await fetch(`${server.origin}/rpc/${path}`, {
    method: "POST",
    headers: {
      ...sameOrigin(server),
      "Content-Type": "application/json",
      "Accept-Language": "en",
      ...(credentials.cookie ? { Cookie: credentials.cookie } : {}),
      ...(credentials.authorization ? { Authorization: credentials.authorization } : {}),
    },
    body: JSON.stringify({ json: input }),
  });
  const body = (await response.json()) as { json: ProcedureAnswer["json"] };
  return { status: response.status, headers: response.headers, json: body.json };
}

/** Signs in through `server`'s sign-in form, as a browser would; the session cookie it set. */
export async function signInAt(server: ProductionServer, email: string, password: string): Promise<string> {
  const answer = await fetch(`${server.origin}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { ...sameOrigin(server), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password, redirectTo: "/dashboard" }),
  });
  const token = /session=([a-z2-7]+)/.exec(answer.headers.get("set-cookie") ?? "")?.[1];
  if (answer.status !== 302 || !token) throw new Error(`sign-in at ${server.origin} answered ${answer.status}`);
  return `session=${token}`;
}

/** Signs out through `server`'s sign-out button (POST /logout). */
export async function signOutAt(server: ProductionServer, cookie: string): Promise<number> {
  const answer = await fetch(`${server.origin}/logout`, {
    method: "POST",
    redirect: "manual",
    headers: { ...sameOrigin(server), Cookie: cookie },
  });
  await answer.arrayBuffer();
  return answer.status;
}

/** Every mail to `address` in the outboxes of all `servers` (each instance's worker writes to its own). */
export async function mailsAcross(servers: ProductionServer[], address: string): Promise<{ server: ProductionServer; mail: ParsedMail }[]> {
  const found = await Promise.all(servers.map(async (server) => (await mailsTo(server, address, 0, 0)).map((mail) => ({ server, mail }))));
  return found.flat();
}
