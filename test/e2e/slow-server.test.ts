/**
 * The whole path against an emulator that answers like a management node (~0.3 s a request,
 * xcat-behavior.md section 10), through the real engine at its default parallelism: `up` costs
 * about one request per node (no read-back each), `refresh` and `destroy` a handful in all,
 * because calls queue behind the request of their kind in flight and go out merged (issue #11).
 * An image roll merges its updates as far as the engine's default parallelism lets it, and one
 * node that cannot be updated fails alone, naming itself, while the others are rolled (issue #25).
 */

import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiCommandError, PulumiWorkspace } from "./support/pulumi-workspace";

const NODES = 50;
let emulator: RunningEmulator;
let workspace: PulumiWorkspace;

beforeAll(async () => {
  emulator = await startEmulator({ latencyMs: [300, 300] });
  workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, "../../examples/scale"),
    sandboxDir: inject("e2eSandbox"),
  });
  await workspace.setConfigs(
    {
      "xcat:url": emulator.url,
      "xcat:username": "root",
      nodeCount: String(NODES),
      // These counts are about merged node writes; the name services that follow node writes (their
      // own merged makehosts/makedns/makedhcp requests) are counted in test/provider/name-services.test.ts.
      "xcat:nameServices": "none",
    },
    { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
  );
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
  });

  it("refresh: a handful of requests for all nodes", async () => {
    const requests = await requestsDuring(() => workspace.refresh());
    expect(requests).toBeLessThanOrEqual(10);
  });

  it("image roll: merged PUTs as full as the engine's steps allow; a node that cannot be updated fails alone", async () => {
    const puts = () => emulator.stats().byRoute?.["PUT /nodes/{noderange}"] ?? 0;
    const image = (name: string) =>
      emulator.state.getRows("nodetype").find((row) => row.node === name)?.provmethod;
    await workspace.setConfig("image", "rhels9.4-x86_64-install-compute");
    const before = puts();
    expect(await workspace.up()).toMatchObject({ update: NODES });
    // The engine has at most 4 x cores updates under way (8 on 2 cores): 50 nodes cannot take
    // fewer than 7 PUTs. Holding for what a request costs keeps them near that (the old fixed
    // 50 ms quiet time sent 2-4 nodes a PUT on a busy machine); the bound leaves room for one.
    expect(puts() - before).toBeLessThanOrEqual(NODES / 3);
    expect(image("sc001")).toBe("rhels9.4-x86_64-install-compute");

    // sc007 is deleted by hand: the merged PUT that holds it fails, and each of its nodes is sent
    // again alone, so only sc007 fails, with xCAT's own message for it, and every other node is rolled.
    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
      batching: false,
    });
    await admin.nodes.delete("sc007");
    await admin.close();
    await workspace.setConfig("image", "rhels9.4-x86_64-netboot-compute");
    const failure = await workspace.up().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PulumiCommandError);
    const output = (failure as PulumiCommandError).message;
    expect(output).toMatch(/sc007/);
    // chdef's own answer for a node that is gone (DBobjectdefs.pm: a node without groups is refused).
    expect(output).toMatch(/nodes\/sc007 failed: 403[^\n]*node 'sc007'/);
    const all = Array.from({ length: NODES }, (_, i) => `sc${String(i + 1).padStart(3, "0")}`);
    const rolled = all.filter((name) => image(name) === "rhels9.4-x86_64-netboot-compute");
    // The engine starts no new step after a failure: the nodes whose updates were under way with
    // sc007's are rolled, the rest wait for the next up. None failed with sc007.
    expect(rolled.length).toBeGreaterThan(0);
    expect(rolled).not.toContain("sc007");
    // The next up re-creates the node deleted by hand and rolls exactly the nodes not rolled yet.
    await workspace.refresh();
    // (The engine leaves out the counts that are 0: every other node may have been rolled already.)
    const next = await workspace.up();
    expect(next.create).toBe(1);
    expect(next.update ?? 0).toBe(NODES - 1 - rolled.length);
    expect(all.filter((name) => image(name) !== "rhels9.4-x86_64-netboot-compute")).toEqual([]);
  });

  it("destroy: deletes merged into noderange DELETEs", async () => {
    const requests = await requestsDuring(async () =>
      expect(await workspace.destroy()).toEqual({ delete: NODES + 1 }),
    );
    // The engine has at most 4 × cores deletes under way, so a merged DELETE holds at most that
    // many names (measured here: 16 requests on 2 cores, against 51 one by one).
    expect(requests).toBeLessThanOrEqual(NODES / 2.5);
  });
});
