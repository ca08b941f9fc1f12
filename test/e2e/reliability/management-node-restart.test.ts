/**
 * Issue 8, item 4: the management node goes away during a run. The emulator keeps its data in a
 * file (`--data`), is stopped part way through `pulumi up` and started again on the same port.
 * A short restart is ridden out by the client's retries and the run completes; an outage longer
 * than the retry budget fails the resources in flight with a message that says what happened,
 * and the next `pulumi up` converges. Either way xCAT ends with exactly the program's nodes.
 */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../src/emulator";
import { waitForState } from "../../support/wait-for-state";
import type { PulumiWorkspace } from "../support/pulumi-workspace";
import {
  expectEmulatorMatches,
  expectedScaleNodes,
  expectStateMatches,
  outputOf,
  REST_PASSWORD,
  scaleWorkspace,
} from "./support";

describe("the management node restarts during a run", () => {
  let dataDir: string;
  let emulator: RunningEmulator;
  let port: number;
  let workspace: PulumiWorkspace;

  const start = async (): Promise<RunningEmulator> =>
    startEmulator({
      password: REST_PASSWORD,
      dataFile: join(dataDir, "xcat.sqlite"),
      port,
      latencyMs: [10, 40],
    });

  /**
   * Stops the emulator once `up` has created `nodes` nodes, waits `downMs`, starts it again on the
   * same port. Returns how long it was down, for the log only: a busy machine makes it longer,
   * and no assertion bounds it.
   */
  async function restartAfter(
    nodes: number,
    downMs: number,
    up: { readonly result: Promise<unknown> },
    signal: AbortSignal,
  ): Promise<number> {
    await waitForState(() => emulator.state.listObjects("node").length >= nodes, `${nodes} nodes`, {
      signal,
      until: { ended: up.result, what: "pulumi up" },
    });
    await emulator.close();
    const stoppedAt = Date.now();
    await sleep(downMs);
    emulator = await start();
    return Date.now() - stoppedAt;
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "xcat-restart-"));
    port = 0;
    emulator = await start();
    port = Number(new URL(emulator.url).port);
    workspace = await scaleWorkspace(emulator, { nodeCount: 100 });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("a restart of a second and a half: the run completes", async ({ signal }) => {
    // Six retries (at least 15.75 s of backoff, src/client/retry.ts) ride out the outage with
    // room to spare however slowly a busy machine restarts the emulator; the default five
    // attempts (at least 3.75 s) left about 2 s for the restart itself (issue #40).
    await workspace.setConfig("xcat:maxRetries", "6");
    const up = workspace.start(["up", "--yes", "--skip-preview"]);
    const downFor = await restartAfter(30, 1_500, up, signal);
    const result = await up.result;
    console.info(`[reliability] emulator down for ${downFor} ms during up: exit ${result.exitCode}`);
    expect(await workspace.lastChanges()).toEqual({ create: 101 });
    expectEmulatorMatches(emulator, expectedScaleNodes(100));
    await expectStateMatches(workspace, Object.keys(expectedScaleNodes(100)));
  });

  it("an outage longer than the retries: resources fail clearly, and the next up converges", async ({
    signal,
  }) => {
    // One retry (at most 0.5 s of backoff, src/client/retry.ts) keeps the outage that outlasts
    // the retries short; the default budget is the same path, only longer.
    await workspace.setConfigs({ nodeCount: "160", "xcat:maxRetries": "1" });
    const up = workspace.start(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const downFor = await restartAfter(120, 5_000, up, signal);
    const failed = await up.result;
    const output = outputOf(failed);
    console.info(`[reliability] emulator down for ${downFor} ms during up: exit ${failed.exitCode}`);
    expect(failed.exitCode).not.toBe(0);
    // Each failure names the request and the reason, once the retries were used up...
    expect(output).toMatch(/failed: connection error ECONNREFUSED.*\(after \d+ attempts\)/);
    // ...and is a message, not a crash.
    expect(output).not.toMatch(/^\s+at .+\(.+:\d+:\d+\)$/m);

    await workspace.run(["up", "--yes", "--skip-preview"]);
    expectEmulatorMatches(emulator, expectedScaleNodes(160));
    await expectStateMatches(workspace, Object.keys(expectedScaleNodes(160)));
    expect((await workspace.preview()).changeSummary).toEqual({ same: 161 });
  });
});
