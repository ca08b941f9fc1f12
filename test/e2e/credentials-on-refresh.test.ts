/**
 * Issue 16, item 8: which connection settings `pulumi refresh` and `pulumi destroy` use after
 * the stack config changed. Pulumi records a default provider's configuration in the state at
 * each run of the program (`up`, `refresh --run-program`), and runs without the program (refresh,
 * destroy) configure the provider from that record, not from the current stack config (measured
 * with Pulumi 3.259.0; test/e2e/reliability/secrets.test.ts shows `--run-program` reading the
 * current one). The README states this once, under Configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { REST_PASSWORD, scaleWorkspace } from "./reliability/support";
import type { PulumiWorkspace } from "./support/pulumi-workspace";

const WRONG_PASSWORD = "not-the-password-5e1f";

describe("refresh and destroy after xcat:password changed", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD });
    workspace = await scaleWorkspace(emulator, { nodeCount: 1 });
    await workspace.run(["up", "--yes", "--skip-preview"]);
    await workspace.setConfig("xcat:password", WRONG_PASSWORD, { secret: true });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("the state records the provider configuration of the last up (the password encrypted)", async () => {
    const { resources } = await workspace.exportState();
    const provider = resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
    expect(provider?.inputs?.["xcat:url"]).toBe(emulator.url);
    expect(JSON.stringify(provider?.inputs?.["xcat:password"])).not.toContain(REST_PASSWORD);
  });

  // The emulator accepts only REST_PASSWORD: a run that succeeds did not use the current config.
  it("refresh uses the recorded config: it succeeds with the old password", async () => {
    await workspace.run(["refresh", "--yes", "--skip-preview"]);
    expect(emulator.state.listObjects("node")).toEqual(["sc001"]);
  });

  it("destroy uses the recorded config: it succeeds with the old password", async () => {
    await workspace.run(["destroy", "--yes", "--skip-preview"]);
    expect(emulator.state.listObjects("node")).toEqual([]);
  });
});
