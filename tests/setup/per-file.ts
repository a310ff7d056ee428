// Runs in every test file's process before its tests: points the app at a database of its own.
import { afterAll, inject } from "vitest";
import { cloneTemplate, dropDatabase } from "./database.ts";

const adminUrl = inject("databaseAdminUrl");
const database = await cloneTemplate(adminUrl);
process.env.DATABASE_URL = database.url;
process.env.NODE_ENV = "test";
process.env.DATABASE_POOL_SIZE ??= "10";

afterAll(async () => {
  const { disconnectDb } = await import("~/db.server");
  await disconnectDb();
  await dropDatabase(adminUrl, database.name);
});
