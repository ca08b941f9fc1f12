/**
 * Persistence with a data file (issue item 1, 4): data survives a restart; the seed is written
 * once. Also HTTPS with a generated certificate a client can verify.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";
import { AUTH, call } from "./helpers";

describe("persistence and TLS", () => {
  const dir = mkdtempSync(join(tmpdir(), "xcat-emu-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a data file keeps tables, hardware state and tokens across restarts", async () => {
    const dataFile = join(dir, "xcat.sqlite");
    const first = await startEmulator({ dataFile });
    await call(first, "POST", "/nodes/p1", { body: { groups: "all", mgt: "ipmi" } });
    await call(first, "PUT", "/nodes/p1/power", { body: { action: "off" } });
    await call(first, "DELETE", "/policy/4.9");
    const snapshot = first.state.snapshot();
    await first.close();

    const second = await startEmulator({ dataFile });
    try {
      expect(second.state.snapshot()).toBe(snapshot);
      expect((await call(second, "GET", "/nodes/p1/power")).json).toEqual({ p1: { power: "off" } });
      expect(second.state.listObjects("policy")).not.toContain("4.9");
    } finally {
      await second.close();
    }
  });

  it("snapshots are deterministic: equal data gives equal text", async () => {
    const a = await startEmulator();
    const b = await startEmulator();
    try {
      await call(a, "POST", "/nodes/x1", { body: { groups: "all", arch: "x86_64" } });
      await call(a, "POST", "/nodes/x2", { body: { groups: "all" } });
      await call(b, "POST", "/nodes/x2", { body: { groups: "all" } });
      await call(b, "POST", "/nodes/x1", { body: { arch: "x86_64", groups: "all" } });
      expect(a.state.snapshot()).toBe(b.state.snapshot());
      expect(JSON.parse(a.state.snapshot())).not.toHaveProperty("token");
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("https: true serves a certificate for 127.0.0.1 that verifies with caCertPem", async () => {
    const xcat = await startEmulator({ https: true });
    try {
      expect(xcat.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/xcatws$/);
      expect(xcat.caCertPem).toMatch(/BEGIN CERTIFICATE/);
      const dispatcher = new Agent({ connect: { ca: xcat.caCertPem } });
      const reply = await request(`${xcat.url}/nodes?${AUTH}`, { dispatcher });
      expect(reply.statusCode).toBe(200);
      await reply.body.text();
      await dispatcher.close();
      await expect(request(`${xcat.url}/nodes?${AUTH}`)).rejects.toThrow();
    } finally {
      await xcat.close();
    }
  });
});
