/**
 * Issue #16 item 5 at scale on the real engine: a preview of 20 nodes to adopt shows for each what
 * adopting changes, and reads them in as few requests as a refresh would (the engine checks
 * resources a few at a time; the client's read batching merges those reads).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XcatClient } from "../../../src/client";
import { type RunningEmulator, startEmulator } from "../../../src/emulator";
import type { PulumiWorkspace } from "../support/pulumi-workspace";
import { REST_PASSWORD, scaleWorkspace } from "./support";

const COUNT = 20;

describe("preview of nodes to adopt", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    const admin = new XcatClient({ url: emulator.url, username: "root", password: REST_PASSWORD });
    for (let i = 1; i <= COUNT; i++) {
      await admin.nodes.create(`sc${String(i).padStart(3, "0")}`, { groups: "scale,all", ip: "10.99.0.1" });
    }
    await admin.close();
    workspace = await scaleWorkspace(emulator, { nodeCount: COUNT, config: { adopt: "true" } });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it(`shows what adopting changes on each of ${COUNT} nodes, in at most 3 requests`, async () => {
    const before = emulator.stats().total;
    const preview = await workspace.preview();
    const requests = emulator.stats().total - before;
    const creates = preview.steps.filter((step) => step.op === "create" && step.urn.includes("xcat:Node"));
    expect(creates).toHaveLength(COUNT);
    const sc007 = creates.find((step) => step.urn.endsWith("::sc007")) as
      | { newState?: { inputs?: { adoptChanges?: Record<string, string> } } }
      | undefined;
    expect(sc007?.newState?.inputs?.adoptChanges?.ip).toBe("10.99.0.1 → 10.20.0.8");
    // The token request that proves the connection, and the batched reads.
    expect(requests).toBeLessThanOrEqual(3);
  });
});
