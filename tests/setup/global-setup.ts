import type { TestProject } from "vitest/node";
import { startTestServer } from "./database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseAdminUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startTestServer();
  project.provide("databaseAdminUrl", server.adminUrl);
  return () => server.stop();
}
