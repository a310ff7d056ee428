// Runs in every test file's process before its tests: points the app at a database of its own.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, inject } from "vitest";
import { cloneTemplate, dropDatabase } from "./database.ts";

const adminUrl = inject("databaseAdminUrl");
const database = await cloneTemplate(adminUrl);
process.env.DATABASE_URL = database.url;
process.env.NODE_ENV = "test";
process.env.DATABASE_POOL_SIZE ??= "10";
// A signing key of the file's own, as a deployment configures one: the digest job signs with it.
process.env.AUDIT_SIGNING_KEY ??= String(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }));

afterAll(async () => {
  const { disconnectDb } = await import("~/db.server");
  await disconnectDb();
  await dropDatabase(adminUrl, database.name);
});
