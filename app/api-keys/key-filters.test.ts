import { describe, expect, it } from "vitest";
import { DomainError } from "~/lib/domain-error";
import { keyFilterParams, listKeysInputSchema, looksLikeWholeSecret, parseKeyFilters, SECRET_PREFIX_LENGTH } from "./key-filters";
import { generateSecret } from "./secret.server";

const parse = (query: string) => parseKeyFilters(new URLSearchParams(query));

function refusal(query: string): string {
  try {
    parse(query);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe("BAD_REQUEST");
    return (error as DomainError).messageKey;
  }
  throw new Error(`expected a 400 for ${query}`);
}

describe("key filters", () => {
  it("reads nothing as no filters, sorted newest first, and empty values as absent (the form without JavaScript sends them)", () => {
    const none = { filters: { query: null, scope: null, state: null, sort: "created" }, queryShortened: false };
    expect(parse("")).toEqual(none);
    expect(parse("q=&scope=&state=&sort=")).toEqual(none);
    expect(parse("q=%20%20&sort=created")).toEqual(none);
  });

  it("reads each filter, trimmed", () => {
    expect(parse("q=%20Deploy%20bot%20&scope=audit:view&state=expired&sort=lastUsed").filters).toEqual({
      query: "Deploy bot",
      scope: "audit:view",
      state: "expired",
      sort: "lastUsed",
    });
  });

  it("cuts a pasted whole secret to its prefix and says so; a prefix or shorter stays as typed", () => {
    const { secret, prefix } = generateSecret(crypto.randomUUID());
    expect(prefix).toHaveLength(SECRET_PREFIX_LENGTH);
    expect(parse(`q=${encodeURIComponent(secret)}`)).toMatchObject({ filters: { query: prefix }, queryShortened: true });
    // With control characters after the prefix: the rest is dropped before anything looks at it.
    expect(parse(`q=${encodeURIComponent(`${prefix}\u0000\u0007${"x".repeat(1_000_000)}`)}`)).toMatchObject({
      filters: { query: prefix },
      queryShortened: true,
    });
    expect(parse(`q=${prefix}`)).toMatchObject({ filters: { query: prefix }, queryShortened: false });
    expect(parse("q=sk_AbC")).toMatchObject({ filters: { query: "sk_AbC" }, queryShortened: false });
    // What the search cuts is what the language links leave out: with the whitespace of a copy too.
    expect(parse(`q=${encodeURIComponent(`\n ${secret}\t`)}`)).toMatchObject({ filters: { query: prefix }, queryShortened: true });
    expect(looksLikeWholeSecret(`\n ${secret}\t`)).toBe(true);
    expect(looksLikeWholeSecret(` ${prefix} `)).toBe(false);
  });

  it("answers bad values with a 400 naming what is wrong", () => {
    expect(refusal("scope=audit:write")).toBe("apiKeyFilters.badScope");
    expect(refusal("scope=AUDIT:VIEW")).toBe("apiKeyFilters.badScope");
    expect(refusal("state=deleted")).toBe("apiKeyFilters.badState");
    expect(refusal("sort=name")).toBe("apiKeyFilters.badSort");
    expect(refusal("state=active&state=revoked")).toBe("apiKeyFilters.repeated");
    expect(refusal("q=a&q=b")).toBe("apiKeyFilters.repeated");
    expect(refusal(`q=${"n".repeat(101)}`)).toBe("apiKeyFilters.queryTooLong");
    expect(refusal("q=a%00b")).toBe("apiKeyFilters.queryInvalid");
    expect(refusal("q=bot%E2%80%AE")).toBe("apiKeyFilters.queryInvalid");
  });

  it("writes links with the filters that differ from the defaults", () => {
    expect(keyFilterParams(parse("q=a b&scope=&sort=created").filters).toString()).toBe("q=a+b");
    expect(keyFilterParams(parse("state=revoked&sort=lastUsed").filters).toString()).toBe("state=revoked&sort=lastUsed");
  });

  it("apiKey.list: the same filters, strict, and a whole secret refused rather than cut", () => {
    const organizationId = crypto.randomUUID();
    expect(listKeysInputSchema.parse({ organizationId })).toEqual({ organizationId });
    expect(listKeysInputSchema.parse({ organizationId, query: " bot ", scope: "member:read", state: "active", sort: "lastUsed" })).toEqual({
      organizationId,
      query: "bot",
      scope: "member:read",
      state: "active",
      sort: "lastUsed",
    });
    const messages = (input: Record<string, unknown>) => {
      const result = listKeysInputSchema.safeParse({ organizationId, ...input });
      return result.success ? [] : result.error.issues.map((issue) => issue.message);
    };
    expect(messages({ query: generateSecret(organizationId).secret })).toEqual(["apiKeyFilters.querySecret"]);
    expect(messages({ query: "x".repeat(101) })).toEqual(["apiKeyFilters.queryTooLong"]);
    expect(messages({ query: 7 })).toEqual(["apiKeyFilters.queryInvalid"]);
    expect(messages({ scope: "admin" })).toEqual(["apiKeyFilters.badScope"]);
    expect(messages({ state: "" })).toEqual(["apiKeyFilters.badState"]);
    expect(messages({ sort: "name" })).toEqual(["apiKeyFilters.badSort"]);
    expect(listKeysInputSchema.safeParse({ organizationId, filter: "x" }).success).toBe(false);
  });
});
