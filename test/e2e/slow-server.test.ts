/**
 * The whole path against an emulator that answers like a management node (~0.3 s a request,
 * xcat-behavior.md section 10), through the real engine at its default parallelism: `up` costs
 * about one request per node (no read-back each), `refresh` and `destroy` a handful in all,
 * because calls queue behind the request of their kind in flight and go out merged (issue #11).
 */

import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const NODES = 50;
let emulator: RunningEmulator;
let workspace: PulumiWorkspace;

beforeAll(async () => {
  emulator = await startEmulator({ latencyMs: [300, 300] });
  workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, "../../examples/scale"),
    sandboxDir: inject("e2eSandbox"),
  });
  await workspace.setConfig("xcat:url", emulator.url);
  await workspace.setConfig("xcat:username", "root");
  await workspace.setConfig("xcat:password", EMULATOR_DEFAULT_PASSWORD, { secret: true });
  await workspace.setConfig("nodeCount", String(NODES));
});

afterAll(async () => {
  await workspace?.dispose();
  await emulator?.close();
});

async function requestsDuring(work: () => Promise<unknown>): Promise<number> {
  const before = emulator.stats().total;
  await work();
  return emulator.stats().total - before;
}

describe(`${NODES} nodes against a slow management node`, () => {
  it("up: one POST per node and a read or two, not a read-back each", async () => {
    const requests = await requestsDuring(async () =>
      expect(await workspace.up()).toEqual({ create: NODES + 1 }),
    );
    // A token, one POST per node, the read-backs of the first few nodes of the one shape.
    expect(requests).toBeLessThanOrEqual(NODES + 6);
  }, 120_000);

  it("refresh: a handful of requests for all nodes", async () => {
    const requests = await requestsDuring(() => workspace.refresh());
    expect(requests).toBeLessThanOrEqual(10);
  }, 120_000);

  it("destroy: deletes merged into noderange DELETEs", async () => {
    const requests = await requestsDuring(async () =>
      expect(await workspace.destroy()).toEqual({ delete: NODES + 1 }),
    );
    // The engine has at most 4 × cores deletes under way, so a merged DELETE holds at most that
    // many names (measured here: 16 requests on 2 cores, against 51 one by one).
    expect(requests).toBeLessThanOrEqual(NODES / 2.5);
  }, 120_000);
});
