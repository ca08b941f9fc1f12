/**
 * A roll that stops, through the real engine (issue 29 item 3): a rack of 12 nodes re-imaged in
 * batches of 4. SIGINT (or SIGTERM) to `pulumi up` after the first batch was sent starts no later batch, the
 * state says which 4 nodes have the new image, and the next up re-images the other 8 alone. A
 * failing canary re-images no other node; maxFailures 2 stops after the batch in which the
 * second node fails. A misspelt osimage fails preview, naming the resource, field and the
 * closest image. A canary that never boots (issue #37 item 4) says why it may be stuck, and one
 * SIGINT ends the run after the cancel's grace period, long before the Deployment's timeout, with
 * the canary recorded not deployed; the next up deploys it.
 */

import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { waitForState } from "../support/wait-for-state";
import { defineBootableNodes } from "./support/bootable-nodes";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const RACK = "r02n[01-12]";
const rack = Array.from({ length: 12 }, (_, i) => `r02n${String(i + 1).padStart(2, "0")}`);
const IMAGE = { a: "rhels9.4-x86_64-install-compute-a", b: "rhels9.4-x86_64-install-compute-b" };

type NodeStates = Record<string, { status: string; osimage: string; deployed: boolean }>;

/** nodeset requests so far: one per batch a roll started. */
function nodesets(emulator: RunningEmulator): number {
  return emulator.stats().byRoute["PUT /nodes/{noderange}/bootstate"] ?? 0;
}

function writes(emulator: RunningEmulator): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

/** Per node, how many power events it has seen: a re-image adds some. */
function bootLogs(emulator: RunningEmulator): number[] {
  return rack.map((node) => emulator.state.getHardware(node).eventlog.length);
}

/** The nodes whose power log grew since `before`. */
function reimaged(emulator: RunningEmulator, before: readonly number[]): string[] {
  const now = bootLogs(emulator);
  return rack.filter((_, i) => now[i] !== before[i]);
}

describe("a Deployment roll that stops, on the real engine", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  async function nodeStates(): Promise<NodeStates> {
    const state = await workspace.exportState();
    const deployment = state.resources.find((r) => r.type.endsWith("xcat:Deployment"));
    return (deployment?.outputs?.nodeStates ?? {}) as NodeStates;
  }

  beforeAll(async () => {
    // Long enough boots that the SIGINT lands while the first batch is still booting.
    emulator = await startEmulator({ bootSeconds: 4 });
    await defineBootableNodes(emulator, RACK);
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../examples/provisioning"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.setConfigs(
      {
        "xcat:url": emulator.url,
        "xcat:username": "root",
        nodes: RACK,
        pollSeconds: "0.5",
        timeoutMinutes: "2",
        concurrency: "1",
        canary: "0",
        // The first roll in one batch, to be quick.
        batchSize: "12",
      },
      { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
    );
    await workspace.up();
    expect(await workspace.outputs()).toMatchObject({ deployed: 12 });
    await workspace.setConfig("batchSize", "4");
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("a misspelt osimage fails preview naming the resource, the field and the closest image; nothing is written", async () => {
    await workspace.setConfig("osimage", "rhels9.4-x86_64-instal-compute-b");
    const before = writes(emulator);
    const result = await workspace.run(["preview"], { allowFailure: true });
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode).not.toBe(0);
    expect(output).toMatch(/xcat:Deployment.*compute/);
    expect(output).toContain(
      "xcat:Deployment: osimage: xCAT has no OS image 'rhels9.4-x86_64-instal-compute-b' (lsdef -t osimage); " +
        `the closest existing image is '${IMAGE.b}'`,
    );
    expect(writes(emulator)).toBe(before);
    await workspace.removeConfig("osimage");
  });

  /**
   * Rolls the rack onto `image`, sends `signal` to `pulumi up` after the first "sent to" line,
   * checks that no later batch was sent and what the state records, then runs the next up.
   */
  async function interruptedRoll(
    image: "a" | "b",
    signal: "SIGINT" | "SIGTERM",
    printed: RegExp,
    testSignal: AbortSignal,
  ) {
    const previous = image === "a" ? IMAGE.b : IMAGE.a;
    await workspace.setConfig("image", image);
    const before = nodesets(emulator);
    const logs = bootLogs(emulator);
    // As the admin ran it: with the preview first.
    const up = workspace.start(["up", "--yes"], { allowFailure: true });
    // However long a busy machine takes to send the first batch: the test's timeout (10 min) is the limit.
    await waitForState(
      () => /r02n\[01-04\]: \S+ sent to 4 node\(s\)/.test(up.output()),
      'the first "sent to" line',
      { signal: testSignal, until: { ended: up.result, what: "pulumi up" } },
    );
    up.signal(signal);
    const result = await up.result;
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode, output).not.toBe(0);
    expect(output).toMatch(printed);
    expect(output).toMatch(/cancel received: no new batch starts \(1 batch\(es\) in flight\)/);
    expect(output).toMatch(/the roll stopped early: the roll was cancelled/);
    expect(output).toMatch(/8 node\(s\) were not started and keep their previous image: r02n\[05-12\]/);
    expect(output).not.toMatch(/r02n\[(05-08|09-12)\]: \S+ sent to/);
    // Let any request still on its way land before counting.
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1000));
    expect(nodesets(emulator) - before).toBe(1);
    expect(reimaged(emulator, logs)).toEqual(rack.slice(0, 4));

    const states = await nodeStates();
    for (const node of rack.slice(0, 4)) {
      expect(states[node], node).toMatchObject({ osimage: IMAGE[image], status: "booted", deployed: true });
    }
    for (const node of rack.slice(4)) expect(states[node]?.osimage, node).toBe(previous);

    const between = nodesets(emulator);
    const logsBetween = bootLogs(emulator);
    // The preview of this up is not what the test is about: skipped, a command's time saved.
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(nodesets(emulator) - between).toBe(2);
    expect(reimaged(emulator, logsBetween)).toEqual(rack.slice(4));
    expect(await workspace.outputs()).toMatchObject({ deployed: 12 });
    for (const node of rack) expect(emulator.state.getObject("node", node)?.provmethod).toBe(IMAGE[image]);
  }

  it("SIGINT after the first batch was sent: no later batch, the state says which 4 nodes have the new image, the next up re-images the other 8", async ({
    signal,
  }) => {
    await interruptedRoll("b", "SIGINT", /\^C received; cancelling/, signal);
  });

  it("SIGTERM (a CI runner stopping the job) stops the roll the same way", async ({ signal }) => {
    await interruptedRoll("a", "SIGTERM", /SIGTERM received; cancelling/, signal);
  });

  it("canary 1 with a failing first node re-images no other node", async () => {
    await workspace.setConfigs({ image: "b", canary: "1" });
    emulator.state.setBootOutcome("r02n01", "fail");
    const before = nodesets(emulator);
    const logs = bootLogs(emulator);
    const result = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode).not.toBe(0);
    expect(output).toMatch(/the canary node\(s\) r02n01 did not boot the image/);
    expect(nodesets(emulator) - before).toBe(1);
    expect(reimaged(emulator, logs)).toEqual(["r02n01"]);
    for (const node of rack.slice(1))
      expect(emulator.state.getObject("node", node)?.provmethod).toBe(IMAGE.a);
  });

  it("maxFailures 2 stops after the batch in which the second node fails", async () => {
    emulator.state.setBootOutcome("r02n01", "boot");
    emulator.state.setBootOutcome("r02n03", "fail");
    emulator.state.setBootOutcome("r02n07", "fail");
    await workspace.setConfigs({ canary: "0", maxFailures: "2" });
    const before = nodesets(emulator);
    const logs = bootLogs(emulator);
    const result = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode).not.toBe(0);
    expect(output).toMatch(/2 node\(s\) failed, which reaches maxFailures \(2\)/);
    // r02n01 failed with this image before, so it goes last: batches r02n[02-05], r02n[06-09],
    // then r02n[10-12] with r02n01, which is not started.
    expect(nodesets(emulator) - before).toBe(2);
    expect(reimaged(emulator, logs)).toEqual(rack.slice(1, 9));
    const states = await nodeStates();
    expect(states.r02n03).toMatchObject({ osimage: IMAGE.b, status: "failed", deployed: false });
    expect(states.r02n10).toMatchObject({ osimage: IMAGE.a });
  });

  it("a canary that never boots: the roll says why it may be stuck, one SIGINT ends the run after the grace period, the node is recorded not deployed, and the next up deploys it", async ({
    signal,
  }) => {
    // The image r02n01 does not have (a after the tests above, b when this test runs alone), so
    // r02n01 is due, has not failed with it, and is the canary. It hangs in its installer (the
    // emulator's "hang" outcome): `installing` and nothing since, as a node whose kickstart waits
    // on a console prompt.
    const r02n01 = (await nodeStates()).r02n01;
    const image = r02n01?.deployed && r02n01.osimage === IMAGE.a ? "b" : "a";
    await workspace.removeConfig("maxFailures");
    // stuckMinutes 0.02 is 1.2 s without a status change: the 4 s boot reports `installing`
    // after 0.4 s, then nothing.
    await workspace.setConfigs({ image, canary: "1", cancelGraceSeconds: "3", stuckMinutes: "0.02" });
    for (const node of rack) emulator.state.setBootOutcome(node, "boot");
    emulator.state.setBootOutcome("r02n01", "hang");
    const before = nodesets(emulator);
    const logs = bootLogs(emulator);
    const up = workspace.start(["up", "--yes"], { allowFailure: true });
    const stuck =
      /r02n01: still installing since [^;]+ \([\d.]+ min without a change\); may be stuck: the installer reported installing and nothing since: look at its console \(rcons r02n01\)/;
    await waitForState(() => stuck.test(up.output()), "the stuck line for r02n01", {
      signal,
      until: { ended: up.result, what: "pulumi up" },
    });
    up.signal("SIGINT");
    const result = await up.result;
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode, output).not.toBe(0);
    // In this order: the stuck line, the cancel, then the roll's end, whose message records the
    // canary as still installing when the grace period ended.
    const at = (pattern: RegExp) => output.search(pattern);
    const order = [
      at(stuck),
      at(/cancel received: no new batch starts \(1 batch\(es\) in flight\)/),
      at(/the roll stopped early: the roll was cancelled/),
      at(/r02n01.*cancelled: still in status installing 3 s after the cancel \(cancelGraceSeconds\)/),
    ];
    expect(
      order.every((index) => index >= 0),
      output,
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // It ended on the cancel, not on the Deployment's 2-minute timeout.
    expect(output).not.toMatch(/timeout was reached|timed out after/);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1000));
    expect(nodesets(emulator) - before).toBe(1);
    expect(reimaged(emulator, logs)).toEqual(["r02n01"]);
    const states = await nodeStates();
    expect(states.r02n01).toMatchObject({ osimage: IMAGE[image], deployed: false });
    expect(states.r02n01?.status).toMatch(/cancelled: still in status installing/);

    // The node is fixed; the next up deploys it (first, as the canary) and the rest of the rack.
    emulator.state.setBootOutcome("r02n01", "boot");
    const logsBetween = bootLogs(emulator);
    await workspace.run(["up", "--yes", "--skip-preview"]);
    expect(reimaged(emulator, logsBetween)).toContain("r02n01");
    expect((await nodeStates()).r02n01).toMatchObject({
      osimage: IMAGE[image],
      status: "booted",
      deployed: true,
    });
    expect(await workspace.outputs()).toMatchObject({ deployed: 12 });
  });
});
