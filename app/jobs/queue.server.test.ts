import { describe, expect, it } from "vitest";
import { loggableError } from "./queue.server";

describe("loggableError", () => {
  it("keeps the kind and codes of a mail server's refusal but blanks every address", () => {
    const refusal = Object.assign(
      new Error("Can't send mail - all recipients were rejected: 550 5.1.1 <zelda.x+tag@example.test>: Recipient address rejected"),
      {
        code: "EENVELOPE",
        responseCode: 550,
        rejected: ["zelda.x+tag@example.test"],
        response: "550 5.1.1 <zelda.x+tag@example.test>",
      },
    );
    const logged = loggableError(refusal);
    expect(logged).toEqual({
      type: "Error",
      message: "Can't send mail - all recipients were rejected: 550 5.1.1 <[address]>: Recipient address rejected",
      code: "EENVELOPE",
      responseCode: 550,
    });
    expect(JSON.stringify(logged)).not.toContain("@");
  });

  it("describes things that are not errors without failing", () => {
    expect(loggableError("boom")).toEqual({ type: "Error", message: "boom" });
    expect(loggableError(null)).toEqual({ type: "Error", message: "null" });
  });
});
