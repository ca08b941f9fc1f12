/**
 * Tokens and authentication (xcat-behavior.md §4, §1.1 items 4-5, §3.2, §9.1).
 */

import { describe, expect, it } from "vitest";
import { TokenResponse, XCAT_CONTENT_TYPE } from "../../src/contract/envelope";
import { EMULATOR_DEFAULT_PASSWORD, startEmulator } from "../../src/emulator";
import { formatExpiry, parseExpiry } from "../../src/emulator/store/accounts";
import { call, useEmulator } from "./helpers";

const AUTH_FAILURE = { error: "Authentication failure", errorcode: "2" };

describe("tokens and authentication", () => {
  const env = useEmulator();

  it("POST /tokens answers 201 with a lowercase uuid v4 and an unpadded local expiry one day ahead (§4.2)", async () => {
    const before = new Date();
    const reply = await call(env.xcat, "POST", "/tokens", {
      body: { userName: "root", userPW: EMULATOR_DEFAULT_PASSWORD },
      noAuth: true,
    });
    expect(reply.status).toBe(201);
    expect(reply.contentType).toBe(XCAT_CONTENT_TYPE);
    const { token } = TokenResponse.parse(reply.json);
    expect(token.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(token.expire).toMatch(/^\d{4}-[1-9]\d?-[1-9]\d? (0|[1-9]\d?):(0|[1-9]\d?):(0|[1-9]\d?)$/);
    const [date = "", time = ""] = token.expire.split(" ");
    const [y, mo, d] = date.split("-").map(Number);
    const [h, mi, s] = time.split(":").map(Number);
    const expires = new Date(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0).getTime();
    expect(Math.abs(expires - (before.getTime() + 86_400_000))).toBeLessThan(5_000);
  });

  it("credentials may come in the query for POST /tokens (§4.2)", async () => {
    const reply = await call(env.xcat, "POST", "/tokens", { body: {} });
    expect(reply.status).toBe(201);
  });

  it("a token authenticates requests in X-Auth-Token (§4.1)", async () => {
    const { json } = await call(env.xcat, "POST", "/tokens", {
      body: { userName: "root", userPW: EMULATOR_DEFAULT_PASSWORD },
      noAuth: true,
    });
    const { token } = TokenResponse.parse(json);
    const reply = await call(env.xcat, "GET", "/nodes", { token: token.id });
    expect(reply.status).toBe(200);
  });

  it("bad credentials, unknown tokens and no credentials are 401 with a scalar error (§4.1, §9.1)", async () => {
    for (const reply of [
      await call(env.xcat, "GET", "/nodes?userName=root&userPW=wrong", { noAuth: true }),
      await call(env.xcat, "GET", `/nodes?userName=nobody&userPW=${EMULATOR_DEFAULT_PASSWORD}`, {
        noAuth: true,
      }),
      await call(env.xcat, "GET", "/nodes", { token: "00000000-0000-4000-8000-000000000000" }),
      await call(env.xcat, "GET", "/nodes", { noAuth: true }),
      await call(env.xcat, "POST", "/tokens", { body: { userName: "root", userPW: "nope" }, noAuth: true }),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual(AUTH_FAILURE);
    }
  });

  it("with both credentials and a token, both must be valid (§4.1)", async () => {
    const { json } = await call(env.xcat, "POST", "/tokens", {
      body: { userName: "root", userPW: EMULATOR_DEFAULT_PASSWORD },
      noAuth: true,
    });
    const { token } = TokenResponse.parse(json);
    const url = "/nodes?userName=root&userPW=wrong";
    const reply = await call(env.xcat, "GET", url, { token: token.id });
    expect(reply.status).toBe(401);
  });

  it("the root list and unknown groups need no credentials (§1.1 steps 4-5)", async () => {
    const root = await call(env.xcat, "GET", "", { noAuth: true });
    expect(root.status).toBe(200);
    expect(root.json).toEqual([
      "globalconf",
      "groups",
      "localres",
      "networks",
      "nodes",
      "osimages",
      "policy",
      "services",
      "tables",
      "templates",
      "tokens",
    ]);
    const unknown = await call(env.xcat, "GET", "/abc", { noAuth: true });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: "Unsupported resource.", errorcode: "2" });
  });

  it("table GETs report bad credentials as 403 (§3.2)", async () => {
    const nodes = await call(env.xcat, "GET", "/tables/nodelist/nodes/ALLNODES?userName=root&userPW=x", {
      noAuth: true,
    });
    expect(nodes.status).toBe(403);
    expect(nodes.json).toEqual({ error: ["Authentication failure"], errorcode: "1" });
    const rows = await call(env.xcat, "GET", "/tables/networks/rows?userName=root&userPW=x", {
      noAuth: true,
    });
    expect(rows.status).toBe(403);
    expect(rows.json).toEqual({ error: ["No such table: networks"], errorcode: "1" });
  });

  it("tokenexpiredays=never gives tokens that never expire (§4.2)", async () => {
    env.xcat.state.setRow("site", { key: "tokenexpiredays" }, { value: "never" });
    const reply = await call(env.xcat, "POST", "/tokens", { body: {} });
    expect(TokenResponse.parse(reply.json).token.expire).toBe("never");
    env.xcat.state.deleteRows("site", { key: "tokenexpiredays" });
  });

  it("an expired token is 401 and a new one can be fetched (§4.3)", async () => {
    // Expiry is made by writing the token row's expire into the past (as time passing would):
    // waiting out a short validity instead made the first request's 200 depend on how busy the
    // machine was.
    const xcat = await startEmulator({ tokenTtlSeconds: 1 });
    try {
      const { json } = await call(xcat, "POST", "/tokens", { body: {} });
      const { token } = TokenResponse.parse(json);
      // tokenTtlSeconds sets the validity: the token expires at most a second after it was issued.
      expect(
        (parseExpiry(token.expire)?.getTime() ?? Number.POSITIVE_INFINITY) - Date.now(),
      ).toBeLessThanOrEqual(1000);
      xcat.state.setRow(
        "token",
        { tokenid: token.id },
        { expire: formatExpiry(new Date(Date.now() + 3_600_000)) },
      );
      expect((await call(xcat, "GET", "/nodes", { token: token.id })).status).toBe(200);
      xcat.state.setRow(
        "token",
        { tokenid: token.id },
        { expire: formatExpiry(new Date(Date.now() - 3_600_000)) },
      );
      const expired = await call(xcat, "GET", "/nodes", { token: token.id });
      expect(expired.status).toBe(401);
      expect(expired.json).toEqual(AUTH_FAILURE);
      expect(xcat.state.getRows("token")).toHaveLength(1);
      expect((await call(xcat, "POST", "/tokens", { body: {} })).status).toBe(201);
    } finally {
      await xcat.close();
    }
  });

  it("the policy table decides: a user without an allow rule gets 401 (§4.4)", async () => {
    env.xcat.state.setRow("passwd", { key: "xcat", username: "alice" }, { password: "pw" });
    const denied = await call(env.xcat, "GET", "/nodes?userName=alice&userPW=pw", { noAuth: true });
    expect(denied.status).toBe(401);
    expect(
      (await call(env.xcat, "POST", "/tokens?userName=alice&userPW=pw", { noAuth: true, body: {} })).status,
    ).toBe(201);
    env.xcat.state.setRow("policy", { priority: "6" }, { name: "alice", rule: "allow" });
    expect((await call(env.xcat, "GET", "/nodes?userName=alice&userPW=pw", { noAuth: true })).status).toBe(
      200,
    );
  });

  it("a custom account gets a policy row and works (§4.4 recipe)", async () => {
    const xcat = await startEmulator({ user: "ci", password: "secret" });
    try {
      expect((await call(xcat, "GET", "/nodes?userName=ci&userPW=secret", { noAuth: true })).status).toBe(
        200,
      );
      expect((await call(xcat, "GET", "/nodes")).status).toBe(401);
    } finally {
      await xcat.close();
    }
  });
});
