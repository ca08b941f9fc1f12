import { describe, expect, it } from "vitest";
import { createXcatError, type XcatErrorCode } from "../../src/client/errors";
import {
  isAmbiguousFailure,
  mustCheckBeforeRetry,
  parseRetryAfter,
  type RequestKind,
  resolveRetryOptions,
  runWithRetry,
  shouldRetry,
  wasNotApplied,
} from "../../src/client/retry";

const http = (status: number) => createXcatError("XCAT_HTTP", `x ${status}`, { status });
const net = (networkCode: string, maybeApplied: boolean) =>
  createXcatError("XCAT_NETWORK", networkCode, { networkCode, maybeApplied });
const other = (code: XcatErrorCode, status?: number) => createXcatError(code, code, { status });

const KINDS: RequestKind[] = ["read", "write", "delete", "token", "create", "action"];

// [failure, kinds that retry it]
const TABLE: ReadonlyArray<readonly [string, unknown, readonly RequestKind[]]> = [
  ["408", http(408), KINDS],
  ["429", http(429), KINDS],
  ["502", http(502), ["read", "write", "delete", "token", "create"]],
  ["503", http(503), ["read", "write", "delete", "token", "create"]],
  ["504", http(504), ["read", "write", "delete", "token", "create"]],
  ["500", http(500), []],
  ["400", http(400), []],
  ["connection refused", net("ECONNREFUSED", false), KINDS],
  ["connection reset", net("ECONNRESET", true), ["read", "write", "delete", "token", "create"]],
  ["socket closed", net("UND_ERR_SOCKET", true), ["read", "write", "delete", "token", "create"]],
  ["unknown network code", net("UND_MOCK_ERR_MOCK_NOT_MATCHED", false), []],
  [
    "response timeout",
    createXcatError("XCAT_TIMEOUT", "t", { maybeApplied: true }),
    ["read", "write", "delete", "token", "create"],
  ],
  ["connect timeout", createXcatError("XCAT_TIMEOUT", "t", { maybeApplied: false }), KINDS],
  ["not found", other("XCAT_NOT_FOUND", 403), []],
  ["already exists", other("XCAT_ALREADY_EXISTS", 403), []],
  ["auth", other("XCAT_AUTH", 401), []],
  ["tls", other("XCAT_TLS"), []],
  ["response shape", other("XCAT_RESPONSE_SHAPE", 200), []],
  ["usage", other("XCAT_USAGE"), []],
  ["plain Error", new Error("boom"), []],
];

describe("retry policy", () => {
  for (const [name, error, retried] of TABLE) {
    it(`${name}: retried for ${retried.length === 0 ? "no kind" : retried.join(", ")}`, () => {
      for (const kind of KINDS) expect(shouldRetry(kind, error), kind).toBe(retried.includes(kind));
    });
  }

  it("tells applied-maybe from certainly-not-applied failures", () => {
    expect(wasNotApplied(http(429))).toBe(true);
    expect(wasNotApplied(net("ECONNREFUSED", false))).toBe(true);
    expect(isAmbiguousFailure(http(503))).toBe(true);
    expect(isAmbiguousFailure(net("ECONNRESET", true))).toBe(true);
    expect(isAmbiguousFailure(http(429))).toBe(false);
    expect(isAmbiguousFailure(http(500))).toBe(false);
  });

  it("makes a create read before re-posting only after an ambiguous failure", () => {
    expect(mustCheckBeforeRetry("create", http(503))).toBe(true);
    expect(mustCheckBeforeRetry("create", http(429))).toBe(false);
    expect(mustCheckBeforeRetry("read", http(503))).toBe(false);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(["1.5"])).toBe(1500);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });

  it("defaults to 5 attempts and refuses nonsense", () => {
    expect(resolveRetryOptions(undefined).attempts).toBe(5);
    expect(resolveRetryOptions({ attempts: 2 }).attempts).toBe(2);
    expect(() => resolveRetryOptions({ attempts: 0 })).toThrow(/attempts/);
    expect(() => resolveRetryOptions({ maxDelayMs: -1 })).toThrow(/maxDelayMs/);
  });
});

describe("runWithRetry", () => {
  const fast = { attempts: 5, maxTotalMs: 5_000, minDelayMs: 1, maxDelayMs: 5 };

  it("stops after the configured attempts and says how many were made", async () => {
    let calls = 0;
    const error = await runWithRetry("read", fast, async () => {
      calls += 1;
      throw http(503);
    }).catch((e: unknown) => e);
    expect(calls).toBe(5);
    expect(error).toMatchObject({ status: 503, attempts: 5 });
    expect((error as Error).message).toMatch(/after 5 attempts/);
  });

  it("does not retry what the policy refuses", async () => {
    let calls = 0;
    await expect(
      runWithRetry("action", fast, async () => {
        calls += 1;
        throw http(503);
      }),
    ).rejects.toMatchObject({ status: 503 });
    expect(calls).toBe(1);
  });

  it("waits at least Retry-After before the next attempt", async () => {
    const times: number[] = [];
    await runWithRetry("read", { ...fast, maxDelayMs: 1_000 }, async (n) => {
      times.push(Date.now());
      if (n === 1) throw createXcatError("XCAT_HTTP", "slow down", { status: 429, retryAfterMs: 120 });
      return "ok";
    });
    expect(times).toHaveLength(2);
    expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(110);
  });

  it("passes the previous error to the next attempt", async () => {
    const seen: unknown[] = [];
    await runWithRetry("read", fast, async (n, previous) => {
      seen.push(previous?.status);
      if (n < 3) throw http(502);
      return n;
    });
    expect(seen).toEqual([undefined, 502, 502]);
  });
});
