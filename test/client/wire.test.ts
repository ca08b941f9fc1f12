/**
 * Wire-level behaviour against a MockAgent: shapes, quirks, retries, tokens and redaction in
 * cases the emulator cannot produce on demand.
 */
import { describe, expect, it } from "vitest";
import {
  isAlreadyExists,
  isAuthError,
  isNotFound,
  isResponseShapeError,
  isTransientError,
  isUsageError,
  XcatClient,
} from "../../src/client";
import { mockXcat, ORIGIN, socketClosed, xcatError } from "./support/mock-xcat";

const NOT_FOUND = (name: string) =>
  xcatError(403, [`Could not find an object named '${name}' of type 'node'.`]);

describe("options", () => {
  it("adds /xcatws to a URL without a path and refuses credentials in the URL", () => {
    const { client } = mockXcat(() => ({ status: 200 }));
    expect(client().url).toBe(`${ORIGIN}/xcatws`);
    expect(client({ url: `${ORIGIN}/custom/xcatws/` }).url).toBe(`${ORIGIN}/custom/xcatws`);
    const error = (() => {
      try {
        client({ url: "https://root:cluster@mn.example" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(isUsageError(error)).toBe(true);
    expect(error?.message).not.toContain("cluster");
    expect(() => new XcatClient({ url: ORIGIN })).toThrow(/username and password, or a token/);
    expect(() => client({ maxConcurrency: 0 })).toThrow(/maxConcurrency/);
  });

  it("warns once about insecure TLS through the logger", () => {
    const warnings: string[] = [];
    const { client } = mockXcat(() => ({ status: 200 }));
    client({ url: "https://mn.example", insecure: true, logger: { warn: (m) => warnings.push(m) } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/verification is disabled.*caCert/);
  });

  it("refuses calls after close()", async () => {
    const { client } = mockXcat(() => ({ status: 200, body: [] }));
    const c = client({ dispatcher: undefined, url: "http://127.0.0.1:9" });
    await c.close();
    await expect(c.nodes.list()).rejects.toSatisfy(isUsageError);
  });
});

describe("answers", () => {
  it("turns a body of the wrong shape into a response-shape error naming the call", async () => {
    const { client } = mockXcat(() => ({ status: 200, body: { n01: "not an attribute map" } }));
    const error = await client()
      .nodes.get("n01")
      .catch((e: unknown) => e);
    expect(isResponseShapeError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^GET \/xcatws\/nodes\/n01 failed: 200 with an answer of the wrong shape at n01/,
    );
  });

  it("turns a 200 that is not JSON into a response-shape error", async () => {
    const { client } = mockXcat(() => ({ status: 200, body: "<html>oops</html>" }));
    await expect(client().nodes.list()).rejects.toSatisfy(isResponseShapeError);
  });

  it("returns [] for every empty-list form", async () => {
    for (const reply of [
      { status: 200, body: ["Could not find any object definitions to display."] },
      xcatError(403, ["Could not get objects of type 'network'."]),
      { status: 200 },
    ]) {
      const { client } = mockXcat(() => reply);
      expect(await client().networks.list()).toEqual([]);
    }
  });

  it("formats errors as method, path, status, errorcode and the first message", async () => {
    const { client } = mockXcat(() =>
      xcatError(403, [
        "'foo' is not a valid attribute name for an object type of 'node'.",
        "Skipping to the next attribute.",
      ]),
    );
    const error = await client()
      .nodes.update("n01", { foo: "x" })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `PUT /xcatws/nodes/n01 failed: 403 errorcode=1 "'foo' is not a valid attribute name for an object type of 'node'."`,
    );
    expect(error).toMatchObject({
      status: 403,
      errorcode: "1",
      method: "PUT",
      url: `${ORIGIN}/xcatws/nodes/n01`,
    });
    expect((error as { messages: string[] }).messages).toHaveLength(2);
  });

  it("maps 403 'Could not find an object named' to not found, and 'already exists' forms", async () => {
    const { client } = mockXcat((request) =>
      request.method === "GET"
        ? NOT_FOUND("n09")
        : xcatError(403, ["0 object definitions have been created or modified."]),
    );
    const c = client();
    await expect(c.nodes.get("n09")).rejects.toSatisfy(isNotFound);
    await expect(c.nodes.create("n09", { groups: "all" })).rejects.toSatisfy(isAlreadyExists);
  });

  it("accepts bootstat as well as bootstate, and splits xcoll's merged keys", async () => {
    const { client, calls } = mockXcat((request) =>
      request.path.includes("bootstate")
        ? { status: 200, body: { n01: { bootstat: "boot" }, n02: { bootstate: "install img" } } }
        : { status: 200, body: { "n01,n02": { power: "on" } } },
    );
    const c = client();
    expect(await c.nodes.getBootstate(["n01", "n02"])).toEqual({ n01: "boot", n02: "install img" });
    expect(await c.nodes.getPower("n01,n02", { xcoll: true })).toEqual({ n01: "on", n02: "on" });
    expect(calls[1]?.path).toBe("/xcatws/nodes/n01,n02/power?xcoll=1");
  });

  it("getMany asks again without the names xCAT reports missing", async () => {
    const { client, calls } = mockXcat((request) =>
      request.path.includes("n03")
        ? xcatError(403, ["Could not find an object named 'n03' of type 'node'."])
        : { status: 200, body: { n01: { groups: "all" }, n02: { groups: "all" } } },
    );
    const found = await client().nodes.getMany(["n01", "n02", "n03"]);
    expect([...found.keys()]).toEqual(["n01", "n02"]);
    expect(calls.map((c) => c.path)).toEqual(["/xcatws/nodes/n01,n02,n03", "/xcatws/nodes/n01,n02"]);
  });

  it("logs debug output redacted and still parses the JSON after it", async () => {
    const lines: string[] = [];
    const { client } = mockXcat(() => ({
      status: 200,
      body: '<p>DEBUG: request xml=<xcatrequest><tokens><tokenid>fixed-token-0001</tokenid></tokens></xcatrequest>\n</p>\n["n01"]\n',
    }));
    const names = await client({ logger: { debug: (m) => lines.push(m) } }).nodes.list({ debug: true });
    expect(names).toEqual(["n01"]);
    expect(lines.join("\n")).toContain("xcatrequest");
    expect(lines.join("\n")).not.toContain("fixed-token-0001");
  });
});

describe("retries", () => {
  it("retries a GET on 503 and honours Retry-After on 429", async () => {
    const started = Date.now();
    const { client, calls } = mockXcat((_request, index) =>
      index === 0
        ? xcatError(503, "communication with the xCAT server seems to have been ended prematurely")
        : index === 1
          ? { status: 429, body: "", headers: { "retry-after": "1" } }
          : { status: 200, body: ["n01"] },
    );
    const c = client({ retry: { minDelayMs: 1, maxDelayMs: 2_000 } });
    expect(await c.nodes.list()).toEqual(["n01"]);
    expect(calls).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(c.metrics()).toMatchObject({ calls: 1, requests: 3, retries: 2 });
  });

  it("gives up after 5 attempts and says so", async () => {
    const { client, calls } = mockXcat(() => xcatError(502, "Bad Gateway"));
    const error = await client()
      .nodes.list()
      .catch((e: unknown) => e);
    expect(calls).toHaveLength(5);
    expect(isTransientError(error)).toBe(true);
    expect((error as Error).message).toMatch(/failed: 502 errorcode=2 "Bad Gateway" \(after 5 attempts\)$/);
  });

  it("counts a retried DELETE that then finds nothing as done", async () => {
    const { client, calls } = mockXcat((_request, index) => {
      if (index === 0) throw socketClosed();
      return NOT_FOUND("n01");
    });
    await client().nodes.delete("n01");
    expect(calls.map((c) => c.method)).toEqual(["DELETE", "DELETE"]);
  });

  it("still reports not found for a first-attempt DELETE", async () => {
    const { client } = mockXcat(() => NOT_FOUND("n01"));
    await expect(client().nodes.delete("n01")).rejects.toSatisfy(isNotFound);
    await client().nodes.delete("n01", { ignoreMissing: true });
  });

  it("never re-sends an action POST whose outcome is unknown", async () => {
    const { client, calls } = mockXcat(() =>
      xcatError(503, "communication with the xCAT server seems to have been ended prematurely"),
    );
    await expect(client().nodes.nodeshell("n01", { command: "reboot" })).rejects.toMatchObject({
      status: 503,
    });
    expect(calls).toHaveLength(1);
  });

  it("re-sends an action POST the server refused with 429", async () => {
    const { client, calls } = mockXcat((_r, index) =>
      index === 0 ? { status: 429 } : { status: 201, body: ["done"] },
    );
    expect(await client().nodes.updating("n01")).toEqual(["done"]);
    expect(calls).toHaveLength(2);
  });

  it("reads after a lost create answer and does not create twice when the object is there", async () => {
    const { client, calls } = mockXcat((request) => {
      if (request.method === "POST") throw socketClosed();
      return { status: 200, body: { n01: { groups: "compute,all", mgt: "ipmi", postscripts: "syslog" } } };
    });
    const c = client();
    await c.nodes.create("n01", { groups: ["compute", "all"], mgt: "ipmi" });
    expect(calls.map((r) => r.method)).toEqual(["POST", "GET"]);
    expect(calls[0]?.body).toEqual({ groups: "compute,all", mgt: "ipmi" });
    expect(c.metrics().createChecks).toBe(1);
  });

  it("re-sends a create after an ambiguous failure when the read finds nothing", async () => {
    const { client, calls } = mockXcat((request, index) => {
      if (index === 0)
        return xcatError(503, "communication with the xCAT server seems to have been ended prematurely");
      if (request.method === "GET") return NOT_FOUND("n01");
      return { status: 201 };
    });
    await client().nodes.create("n01", { groups: "all" });
    expect(calls.map((r) => r.method)).toEqual(["POST", "GET", "POST"]);
  });

  it("reports already-exists when the read after a lost answer finds other attributes", async () => {
    const { client } = mockXcat((request) => {
      if (request.method === "POST") throw socketClosed();
      return { status: 200, body: { n01: { groups: "other" } } };
    });
    await expect(client().nodes.create("n01", { groups: "all" })).rejects.toSatisfy(isAlreadyExists);
  });
});

describe("tokens", () => {
  const tokenReply = (id: string) => ({ status: 201, body: { token: { id, expire: "never" } } });

  it("obtains one token for concurrent calls and sends it as X-Auth-Token", async () => {
    const { client, calls } = mockXcat((request) =>
      request.path === "/xcatws/tokens" ? tokenReply("tok-aaaa") : { status: 200, body: ["n01"] },
    );
    const c = client({ token: undefined, username: "root", password: "cluster" });
    await Promise.all([c.nodes.list(), c.nodes.list(), c.nodes.list()]);
    const tokenCalls = calls.filter((r) => r.path === "/xcatws/tokens");
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]?.body).toEqual({ userName: "root", userPW: "cluster" });
    expect(tokenCalls[0]?.headers["x-auth-token"]).toBeUndefined();
    expect(calls.filter((r) => r.path === "/xcatws/nodes").map((r) => r.headers["x-auth-token"])).toEqual([
      "tok-aaaa",
      "tok-aaaa",
      "tok-aaaa",
    ]);
    expect(c.metrics().tokenRequests).toBe(1);
  });

  it("renews once on 'Authentication failure' and repeats the request", async () => {
    let issued = 0;
    const { client, calls } = mockXcat((request) => {
      if (request.path === "/xcatws/tokens") return tokenReply(`tok-${++issued}000`);
      return request.headers["x-auth-token"] === "tok-2000"
        ? { status: 200, body: ["n01"] }
        : xcatError(401, "Authentication failure");
    });
    const c = client({ token: undefined, username: "root", password: "cluster" });
    expect(await c.nodes.list()).toEqual(["n01"]);
    expect(calls.map((r) => r.path)).toEqual([
      "/xcatws/tokens",
      "/xcatws/nodes",
      "/xcatws/tokens",
      "/xcatws/nodes",
    ]);
    expect(c.metrics()).toMatchObject({ tokenRenewals: 1, tokenRequests: 2 });
  });

  it("gives up with an auth error when the renewed token is refused too, without leaking secrets", async () => {
    const { client } = mockXcat((request) =>
      request.path === "/xcatws/tokens"
        ? tokenReply("tok-secret-1")
        : xcatError(401, "Authentication failure (token tok-secret-1, password cluster)"),
    );
    const error = await client({ token: undefined, username: "root", password: "cluster" })
      .nodes.list()
      .catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
    const text = `${(error as Error).message} ${JSON.stringify(error)}`;
    expect(text).not.toContain("tok-secret-1");
    expect(text).not.toContain("cluster");
  });

  it("reports refused credentials as an auth error without retrying", async () => {
    const { client, calls } = mockXcat(() => xcatError(401, "Authentication failure"));
    const error = await client({ token: undefined, username: "root", password: "wrong-pw" })
      .nodes.list()
      .catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^POST \/xcatws\/tokens failed: 401 errorcode=2 "Authentication failure"/,
    );
    expect((error as Error).message).not.toContain("wrong-pw");
    expect(calls).toHaveLength(1);
  });

  it("uses a given token and cannot renew it", async () => {
    const { client, calls } = mockXcat(() => xcatError(401, "Authentication failure"));
    await expect(client().nodes.list()).rejects.toSatisfy(isAuthError);
    expect(calls).toHaveLength(1);
  });

  it("reads 403 ['Authentication failure'] from the table endpoints as an auth failure too", async () => {
    let issued = 0;
    const { client } = mockXcat((request) => {
      if (request.path === "/xcatws/tokens") return tokenReply(`tok-${++issued}000`);
      return request.headers["x-auth-token"] === "tok-2000"
        ? { status: 200, body: { nodetype: [{ name: "n01", arch: "x86_64" }] } }
        : xcatError(403, ["Authentication failure"]);
    });
    const c = client({ token: undefined, username: "root", password: "cluster" });
    expect(await c.tables.getNodeRows("nodetype", "n01")).toEqual({
      nodetype: [{ name: "n01", arch: "x86_64" }],
    });
  });
});

describe("table quirks", () => {
  it("drops xcatdsource and null columns, and reads 'No table rows matched' as []", async () => {
    const { client } = mockXcat((request) =>
      request.path.includes("nomatch")
        ? xcatError(403, ["No table rows matched specified keys or attributes"])
        : {
            status: 200,
            body: { routes: [{ routename: "r1", net: "10.1.0.0", gateway: null, xcatdsource: "mn" }] },
          },
    );
    const c = client();
    expect(await c.tables.getRows("routes", { routename: "r1" })).toEqual([
      { routename: "r1", net: "10.1.0.0" },
    ]);
    expect(await c.tables.getRows("routes", { routename: "nomatch" })).toEqual([]);
  });

  it("deletes globalconf attributes one request at a time", async () => {
    const { client, calls } = mockXcat(() => ({ status: 200 }));
    await client().globalconf.deleteAttrs(["a", "b"]);
    expect(calls.map((r) => `${r.method} ${r.path}`)).toEqual([
      "DELETE /xcatws/globalconf/attrs/a",
      "DELETE /xcatws/globalconf/attrs/b",
    ]);
  });
});
