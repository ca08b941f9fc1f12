/**
 * The policy pack on a YAML program (the support matrix's "policy pack" row, YAML column): the
 * rules see the native provider's `xcat:index:*` resources as they see TypeScript's dynamic ones.
 * A clean program passes; a node given another node's ip and one given another's BMC are refused,
 * naming both resources, before anything reaches the management node.
 */
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

describe("the policy pack on a YAML program (native provider types)", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;
  let pack: string;

  beforeAll(async () => {
    emulator = await startEmulator();
    const sandbox = inject("e2eSandbox");
    pack = join(sandbox, "node_modules/pulumi-xcat/policy-pack");
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/native-policy"),
      sandboxDir: sandbox,
      env: {
        // pulumi-resource-xcat from the installed package, as `npm install` puts it on a project's PATH.
        PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}`,
        XCAT_URL: emulator.url,
        XCAT_USERNAME: "root",
        XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
      },
    });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("passes the clean program and refuses a duplicate ip and BMC, naming both nodes; nothing is written", async () => {
    const clean = await workspace.run(["preview", "--policy-pack", pack], { allowFailure: true });
    expect(clean.exitCode, clean.stdout + clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/pulumi-xcat@v\d/);

    await workspace.setConfigs({ n03ip: "10.0.0.2", n02bmc: "10.1.0.1" });
    const refused = await workspace.run(["preview", "--policy-pack", pack], { allowFailure: true });
    const output = (refused.stdout + refused.stderr).replace(/\s+/g, " ");
    expect(refused.exitCode, output).not.toBe(0);
    expect(output).toContain("[mandatory] unique-node-ip");
    expect(output).toMatch(/ip 10\.0\.0\.2 is given to both Node "n0[23]" \(node n0[23]\) and Node "n0[23]"/);
    expect(output).toContain("[mandatory] unique-node-bmc");
    expect(output).toMatch(
      /bmc 10\.1\.0\.1 is given to both Node "n0[12]" \(node n0[12]\) and Node "n0[12]"/,
    );
    const writes = Object.keys(emulator.stats().byRoute).filter(
      (route) => /^(POST|PUT|DELETE) /.test(route) && route !== "POST /tokens",
    );
    expect(writes).toEqual([]);
  });
});
