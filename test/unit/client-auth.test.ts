import { describe, expect, it } from "vitest";
import { parseTokenExpiry, renewalTime, TokenSource } from "../../src/client/auth";

describe("token expiry", () => {
  it("reads xCAT's unpadded local time and 'never'", () => {
    expect(parseTokenExpiry("2014-3-8 14:55:0")).toBe(new Date(2014, 2, 8, 14, 55, 0).getTime());
    expect(parseTokenExpiry("2026-12-31 23:59:59")).toBe(new Date(2026, 11, 31, 23, 59, 59).getTime());
    expect(parseTokenExpiry("never")).toBe(Number.POSITIVE_INFINITY);
    expect(parseTokenExpiry("NEVER")).toBe(Number.POSITIVE_INFINITY);
    expect(parseTokenExpiry("tomorrow")).toBeUndefined();
    expect(parseTokenExpiry("2014-13-8 14:55:0")).toBeUndefined();
  });

  it("renews a margin before expiry: a minute at most, a tenth of the lifetime at least", () => {
    const now = new Date(2026, 0, 1, 12, 0, 0).getTime();
    expect(renewalTime("2026-1-2 12:0:0", now)).toBe(new Date(2026, 0, 2, 11, 59, 0).getTime());
    expect(renewalTime("2026-1-1 12:0:10", now)).toBe(now + 9_000);
    expect(renewalTime("never", now)).toBe(Number.POSITIVE_INFINITY);
  });

  it("relies on the server's refusal when the expiry is unreadable or already past", () => {
    const now = new Date(2026, 0, 1, 12, 0, 0).getTime();
    expect(renewalTime("garbage", now)).toBe(Number.POSITIVE_INFINITY);
    expect(renewalTime("2025-1-1 0:0:0", now)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("TokenSource", () => {
  const clock = () => {
    let t = new Date(2026, 0, 1, 12, 0, 0).getTime();
    return { now: () => t, advance: (ms: number) => (t += ms) };
  };

  it("shares one token request between concurrent callers and reuses the token", async () => {
    const c = clock();
    let fetches = 0;
    const source = new TokenSource({
      now: c.now,
      fetchToken: async () => {
        fetches += 1;
        await new Promise((r) => setTimeout(r, 10));
        return { id: `t${fetches}`, expire: "2026-1-2 12:0:0" };
      },
    });
    expect(await Promise.all([source.current(), source.current(), source.current()])).toEqual([
      "t1",
      "t1",
      "t1",
    ]);
    expect(await source.current()).toBe("t1");
    expect(fetches).toBe(1);
  });

  it("renews before expiry", async () => {
    const c = clock();
    let fetches = 0;
    const source = new TokenSource({
      now: c.now,
      fetchToken: async () => ({ id: `t${++fetches}`, expire: "2026-1-1 12:1:40" }),
    });
    expect(await source.current()).toBe("t1");
    c.advance(85_000);
    expect(await source.current()).toBe("t1");
    c.advance(6_000); // 91 s: inside the 10 s margin of a 100 s token
    expect(await source.current()).toBe("t2");
  });

  it("replaces a refused token once, however many callers saw the refusal", async () => {
    let fetches = 0;
    const source = new TokenSource({
      now: Date.now,
      fetchToken: async () => ({ id: `t${++fetches}`, expire: "never" }),
    });
    const stale = await source.current();
    const replaced = await Promise.all([source.replace(stale), source.replace(stale)]);
    expect(replaced).toEqual(["t2", "t2"]);
    expect(await source.replace(stale)).toBe("t2");
    expect(fetches).toBe(2);
  });

  it("keeps a fixed token and cannot replace it", async () => {
    const seen: string[] = [];
    const source = new TokenSource({ now: Date.now, initialToken: "given", onToken: (id) => seen.push(id) });
    expect(await source.current()).toBe("given");
    expect(source.canRenew).toBe(false);
    expect(await source.replace("given")).toBeUndefined();
    expect(seen).toEqual(["given"]);
  });
});
