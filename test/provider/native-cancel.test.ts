/**
 * The native provider's Cancel cuts off the xCAT requests in flight, against an in-process
 * emulator whose answers never come in time: its cost model charges each request, after applying
 * it, the CPU time of a real management node scaled up a hundred thousand times, so a write is
 * carried out and its answer held back, the case where reporting success would be a lie. The
 * stored token comes from a first, fast run of the same emulator database, so the held-back
 * requests are the operation's own.
 *
 * What the engine does around it (pkg/host/host.go:580-600, 637-656 at v3.259.0): Cancel on
 * Ctrl-C or SIGTERM while steps run, and at the end of every run once they have ended.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { clientFor, resetProcessContext } from "../../src/provider/process-context";
import { callHandler, configureNative, nativeUrn, struct } from "./native-support";

const URN = nativeUrn;
const SITE_PUT = "PUT /globalconf/attrs/{attrs}";
let dataDir: string;
let emulator: RunningEmulator;

const call = callHandler;

/** Resolves once `condition` holds; the test's own time limit ends a wait that never does. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolvePromise) => setTimeout(resolvePromise, 10));
}

function updateDomain(value: string): Promise<unknown> {
  const olds = { name: "domain", value: "cluster.example", previousValue: "cluster.example" };
  return call(
    "update",
    new provproto.UpdateRequest()
      .setUrn(URN("GlobalConfAttribute", "domain"))
      .setId("domain")
      .setOlds(struct(olds))
      .setNews(struct({ name: "domain", value })),
  );
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "nv-cancel-"));
  const dataFile = join(dataDir, "xcat.sqlite");
  const fast = await startEmulator({ dataFile });
  const admin = new XcatClient({ url: fast.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  const token = await admin.tokens.create();
  await admin.globalconf.setAttrs({ domain: "cluster.example" });
  await admin.close();
  await fast.close();

  emulator = await startEmulator({ dataFile, costModel: "xcat", costScale: 100_000 });
  // Without the connection check, which would be one more held-back request.
  await configureNative({ url: emulator.url, token: token.id, checkConnection: "false" });
});

afterAll(async () => {
  await resetProcessContext();
  await emulator?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe("native provider: Cancel while requests are in flight", () => {
  it("a Cancel with nothing under way (the one after every run) cancels nothing", async () => {
    await call("cancel", {});
    const pending = updateDomain("first.example").catch((error: unknown) => error);
    // The write goes out: the emulator applies it (and holds back the answer).
    await until(() => (emulator.stats().byRoute[SITE_PUT] ?? 0) === 1);
    expect(clientFor(undefined).metrics().inFlight).toBe(1);
    // Its answer never comes; the next test's Cancel ends it.
    void pending;
  });

  it("cuts off a write whose answer has not come and reports it as maybe applied, naming the resource", async () => {
    const pending = updateDomain("second.example").then(
      () => "reported success",
      (error: unknown) => error as Error,
    );
    await until(() => (emulator.stats().byRoute[SITE_PUT] ?? 0) === 2);
    await call("cancel", {});
    const outcome = await pending;
    expect(outcome).toBeInstanceOf(Object);
    const message = (outcome as Error).message;
    expect(message).toContain('update of xcat:index:GlobalConfAttribute "domain" cancelled');
    expect(message).toContain("may or may not have been applied");
    expect(message).toContain("pulumi refresh");
    expect(message).toMatch(/PUT \/xcatws\/globalconf\/attrs\/domain cancelled/);
    expect(clientFor(undefined).metrics().inFlight).toBe(0);
    // Not sent again: a cancelled request is not retried.
    expect(emulator.stats().byRoute[SITE_PUT]).toBe(2);
  });

  it("after the Cancel, a later operation fails as cancelled without sending anything", async () => {
    const before = emulator.stats().total;
    const error = await call(
      "read",
      new provproto.ReadRequest().setId("domain").setUrn(URN("GlobalConfAttribute", "domain")),
    ).catch((failure: unknown) => failure as Error);
    expect((error as Error).message).toContain('read of xcat:index:GlobalConfAttribute "domain" cancelled');
    expect((error as Error).message).toContain("A read changes nothing");
    expect(emulator.stats().total).toBe(before);
  });
});
