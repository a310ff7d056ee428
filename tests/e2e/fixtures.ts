// The browser tests' `test`: Playwright's, with every page watched for Content-Security-Policy
// violations (an inline script or style the policy blocks shows up as a console error). A test
// that triggers one fails, so the pages keep working under the policy the server sends.
import { test as base } from "@playwright/test";

export const test = base.extend({
  context: async ({ context }, use) => {
    const violations: string[] = [];
    context.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${message.location().url}: ${message.text()}`);
    });
    await use(context);
    if (violations.length) throw new Error(`Content-Security-Policy violations:\n${violations.join("\n")}`);
  },
});

export { expect } from "@playwright/test";
