// Every audit event names the request that recorded it: its correlationId is the X-Request-Id the
// request edge answered with, for a page's form action and for a procedure alike; inside a
// background job it is `job:<id>`; outside both (scripts, the demo seed) it is null. With
// METRICS_TOKEN unset (as here) /metrics does not exist: the pages' 404.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookieName } from "~/auth/cookies.server";
import { createRequestEdge } from "~/edge/request-edge.server";
import { prisma } from "~/db.server";
import { enqueueJob, runDueJobs } from "~/jobs/queue.server";
import { currentCorrelationId } from "~/lib/request-scope.server";
import { recordAuditEvent } from "~/audit/record.server";
import { memberOfNewOrganization } from "../api-key-factories";
import { startInProcessServer, type InProcessServer } from "../app-server";

let server: InProcessServer;

beforeAll(async () => {
  delete process.env.METRICS_TOKEN;
  server = await startInProcessServer();
});
afterAll(() => server.close());

async function issuedEvent(organizationId: string) {
  return prisma.auditEvent.findFirstOrThrow({ where: { organizationId, action: "api_key.issued" }, select: { correlationId: true } });
}

describe("correlationId", () => {
  it("is the X-Request-Id of the procedure call that recorded the event", async () => {
    const owner = await memberOfNewOrganization("owner");
    const response = await fetch(`${server.origin}/rpc/apiKey/issue`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: `${sessionCookieName()}=${owner.token}`,
        origin: server.origin,
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({ json: { organizationId: owner.organization.id, name: "ci", scopes: ["audit:view"] } }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await issuedEvent(owner.organization.id)).correlationId).toBe(requestId);
  });

  it("is the X-Request-Id of the page's form post that recorded the event", async () => {
    const owner = await memberOfNewOrganization("owner");
    const response = await fetch(`${server.origin}/dashboard/organization-settings/api-keys`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `${sessionCookieName()}=${owner.token}`,
        origin: server.origin,
        "sec-fetch-site": "same-origin",
      },
      body: "intent=issue&name=deploy&scopes=audit%3Aview",
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await issuedEvent(owner.organization.id)).correlationId).toBe(requestId);
  });

  it("behind TRUST_PROXY, is the proxy's X-Request-Id when that is a safe id, else the edge's own UUID", async () => {
    const build = (await import(join(import.meta.dirname, "..", "..", "build", "server", "index.js"))) as ServerBuild;
    const proxied = createServer(createRequestEdge({ build, mode: "production", trustProxy: true }));
    await new Promise<void>((resolve) => proxied.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(proxied.address() as AddressInfo).port}`;
    try {
      const issue = async (requestId: string) => {
        const owner = await memberOfNewOrganization("owner");
        const response = await fetch(`${origin}/rpc/apiKey/issue`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            cookie: `${sessionCookieName()}=${owner.token}`,
            origin,
            "sec-fetch-site": "same-origin",
            "x-request-id": requestId,
          },
          body: JSON.stringify({ json: { organizationId: owner.organization.id, name: "ci", scopes: ["audit:view"] } }),
        });
        expect(response.status).toBe(200);
        return { header: response.headers.get("x-request-id"), event: (await issuedEvent(owner.organization.id)).correlationId };
      };
      expect(await issue("lb-7f3a.req:42")).toEqual({ header: "lb-7f3a.req:42", event: "lb-7f3a.req:42" });
      // Shaped like a secret (an API key, a session token): never kept, in the header or the log.
      for (const unsafe of [`sk_${"a".repeat(40)}`, "abcdefghijklmnopqrstuvwxyz234567"]) {
        const { header, event } = await issue(unsafe);
        expect(header).toMatch(/^[0-9a-f-]{36}$/);
        expect(event).toBe(header);
      }
    } finally {
      proxied.closeAllConnections();
      await new Promise((resolve) => proxied.close(resolve));
    }
  });

  it("is job:<id> inside a background job, and absent outside requests and jobs", async () => {
    const seen: (string | undefined)[] = [];
    await prisma.$transaction((tx) => enqueueJob(tx, "correlation-probe", {}));
    const [job] = await prisma.$queryRaw<
      { id: string }[]
    >`SELECT id::text FROM graphile_worker.jobs WHERE task_identifier = 'correlation-probe'`;
    await runDueJobs({ "correlation-probe": async () => void seen.push(currentCorrelationId()) });
    expect(seen).toEqual([`job:${job!.id}`]);

    const owner = await memberOfNewOrganization("owner");
    const recorded = await prisma.$transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: owner.organization.id,
        action: "api_key.revoked",
        actor: { kind: "system", id: "script" },
        target: { type: "api_key", id: randomUUID() },
        details: { name: "outside" },
      }),
    );
    const event = await prisma.auditEvent.findUniqueOrThrow({
      where: { organizationId_id: { organizationId: owner.organization.id, id: recorded.id } },
      select: { correlationId: true },
    });
    expect(event.correlationId).toBeNull();
  });

  it("answers /metrics with the pages' 404 while METRICS_TOKEN is unset, whatever the Authorization", async () => {
    for (const authorization of [undefined, "Bearer anything-at-all-here"]) {
      const response = await fetch(`${server.origin}/metrics`, { headers: authorization ? { authorization } : {} });
      expect(response.status).toBe(404);
      expect(response.headers.get("www-authenticate")).toBeNull();
      expect(await response.text()).not.toContain("keyledger_");
    }
  });
});
