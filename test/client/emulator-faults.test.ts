/**
 * Faults injected by the emulator: 503 bursts, dropped connections before and after a request was
 * applied, latency beyond the timeout, token expiry mid-sequence, and TLS verification.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isTimeoutError, isTlsError, isXcatError, type XcatClient } from "../../src/client";
import type { EmulatorOptions, RunningEmulator } from "../../src/emulator";
import { connect, emulator, USER } from "./support/emulator";

const TOKEN = "00000000-0000-4000-8000-00000000feed";
const open: Array<{ close(): Promise<void> }> = [];

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

/** An emulator whose scripted faults hit the test's own requests: the client gets a ready token. */
async function withToken(options: EmulatorOptions): Promise<{ emu: RunningEmulator; client: XcatClient }> {
  const emu = await emulator(options);
  emu.state.setRow("token", { tokenid: TOKEN }, { username: USER, expire: "never" });
  const client = connect(emu, { username: undefined, password: undefined, token: TOKEN });
  open.push(emu, client);
  return { emu, client };
}

async function plain(options: EmulatorOptions, clientOptions: Parameters<typeof connect>[1] = {}) {
  const emu = await emulator(options);
  const client = connect(emu, clientOptions);
  open.push(emu, client);
  return { emu, client };
}

describe("503 bursts", () => {
  it("rides out a burst shorter than the retry budget", async () => {
    const { emu, client } = await plain({ faults: { failNext: { status: 503, times: 3 } } });
    expect(await client.nodes.list()).toEqual([]);
    expect(emu.stats().faultsInjected).toBe(3);
    expect(client.metrics().retries).toBe(3);
  });

  it("surfaces a burst longer than the budget, after 5 attempts, then recovers", async () => {
    const { client } = await plain({ faults: { failNext: { status: 503, times: 5 } } });
    const error = await client.nodes.list().catch((e: unknown) => e);
    expect(isXcatError(error) && error.status).toBe(503);
    expect(isXcatError(error) && error.attempts).toBe(5);
    expect(await client.nodes.list()).toEqual([]);
  });
});

describe("requests whose answer was lost", () => {
  it("a create applied before the connection dropped is read back, not sent twice", async () => {
    const { emu, client } = await withToken({
      faults: { failNext: { status: "drop", times: 1, when: "after" } },
    });
    await client.nodes.create("n01", { groups: ["compute", "all"], mgt: "ipmi" });
    expect(client.metrics().createChecks).toBe(1);
    expect(emu.stats().byRoute["POST /nodes/{noderange}"]).toBe(1);
    expect(emu.state.getObject("node", "n01")).toMatchObject({ groups: "compute,all", mgt: "ipmi" });
  });

  it("a create refused with 503 before it was applied is read, then sent again", async () => {
    const { emu, client } = await withToken({
      faults: { failNext: { status: 503, times: 1, when: "before" } },
    });
    await client.nodes.create("n01", { groups: "all" });
    expect(emu.stats().byRoute["POST /nodes/{noderange}"]).toBe(2);
    expect(emu.stats().byRoute["GET /nodes/{noderange}"]).toBe(1);
    expect(emu.state.listObjects("node")).toEqual(["n01"]);
  });

  it("a create answered 408 after it was applied ends as created", async () => {
    const { client, emu } = await withToken({
      faults: { failNext: { status: 408, times: 1, when: "after" } },
    });
    await client.osimages.create("img1", { imagetype: "linux", osvers: "rhels8.6" });
    expect(emu.state.getObject("osimage", "img1")).toMatchObject({ osvers: "rhels8.6" });
  });

  it("a DELETE applied before the connection dropped counts as done", async () => {
    const { emu, client } = await withToken({
      faults: { failNext: { status: "drop", times: 1, when: "after" } },
    });
    emu.state.setRow("networks", { net: "10.0.0.0", mask: "255.0.0.0" }, { netname: "net1" });
    await client.networks.delete("net1");
    expect(emu.state.listObjects("network")).toEqual([]);
    expect(emu.stats().faultsInjected).toBe(1);
    expect(emu.stats().byRoute["DELETE /networks/{netname}"]).toBe(2);
  });

  it("a PUT applied before a 503 is simply repeated", async () => {
    const { emu, client } = await withToken({
      faults: { failNext: { status: 503, times: 2, when: "after" } },
    });
    await client.nodes.update("n01", { groups: "all", usercomment: "x" });
    expect(emu.state.getObject("node", "n01")).toMatchObject({ usercomment: "x" });
    expect(client.metrics().retries).toBe(2);
  });
});

describe("timeouts", () => {
  it("gives up with a timeout error after the retry budget when every answer is too slow", async () => {
    const { emu, client } = await withToken({ latencyMs: [400, 500] });
    const slow = connect(emu, {
      username: undefined,
      password: undefined,
      token: TOKEN,
      requestTimeoutMs: 100,
      retry: { attempts: 3, minDelayMs: 5, maxDelayMs: 20 },
    });
    open.push(slow);
    const error = await slow.nodes.list().catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect(isXcatError(error) && error.attempts).toBe(3);
    expect((error as Error).message).toMatch(/no complete response within 100 ms \(after 3 attempts\)/);
    // Three requests and then no more: the budget ended the call, not a server answer (counted by
    // the client; the emulator drops a request whose client went away without counting it).
    expect(slow.metrics()).toMatchObject({ requests: 3, retries: 2 });
    expect(await client.nodes.list()).toEqual([]);
  });
});

describe("token expiry", () => {
  it("renews a short-lived token before it expires", async () => {
    const { client } = await plain({ tokenTtlSeconds: 1 });
    for (let i = 0; i < 4; i += 1) {
      expect(await client.nodes.list()).toEqual([]);
      await new Promise((r) => setTimeout(r, 600));
    }
    expect(client.metrics().tokenRequests).toBeGreaterThanOrEqual(2);
    expect(client.metrics().failures).toBe(0);
  });

  it("renews once when the server refuses a token the client thought valid", async () => {
    const frozen = Date.now();
    // The renewed token must outlive the retried request even on a loaded machine: with a 1 s
    // lifetime it could expire between its POST and the retry, failing the test by timing alone.
    const { client } = await plain({ tokenTtlSeconds: 3 }, { now: () => frozen });
    expect(await client.nodes.list()).toEqual([]);
    await new Promise((r) => setTimeout(r, 3_100));
    expect(await client.nodes.list()).toEqual([]);
    expect(client.metrics()).toMatchObject({ tokenRequests: 2, tokenRenewals: 1, failures: 0 });
  });
});

describe("TLS", () => {
  it("explains how to trust the management node when its certificate cannot be verified", async () => {
    const { emu, client } = await plain({ https: true });
    const error = await client.nodes.list().catch((e: unknown) => e);
    expect(isTlsError(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /caCert.*\/install\/postscripts\/ca\/ca-cert\.pem.*insecure: true/,
    );
    expect(emu.stats().total).toBe(0);
  });

  it("recognises an http:// URL to an HTTPS server at once and says to use https://", async () => {
    const { emu } = await plain({ https: true });
    const client = connect(emu, { url: emu.url.replace(/^https:/, "http:"), retry: { minDelayMs: 500 } });
    open.push(client);
    const error = await client.nodes.list().catch((e: unknown) => e);
    expect(isTlsError(error)).toBe(true);
    expect((error as Error).message).toContain(`use https:// instead: ${emu.url}`);
    // No retries (each would have waited 500 ms first): the first closed connection and one TLS
    // handshake settle it.
    expect(client.metrics()).toMatchObject({ requests: 1, retries: 0 });
    expect(emu.stats().total).toBe(0);
  });

  it("verifies with the CA as PEM text or as a file, or skips verification when told to", async () => {
    const { emu } = await plain({ https: true });
    const pem = emu.caCertPem ?? "";
    expect(pem).toContain("BEGIN CERTIFICATE");
    const file = join(mkdtempSync(join(tmpdir(), "xcat-ca-")), "ca.pem");
    writeFileSync(file, pem);
    const warnings: string[] = [];
    for (const options of [
      { caCert: pem },
      { caCert: file },
      { insecure: true, logger: { warn: (m: string) => warnings.push(m) } },
    ]) {
      const client = connect(emu, options);
      open.push(client);
      expect(await client.nodes.list()).toEqual([]);
    }
    expect(warnings).toHaveLength(1);
  });
});
