/**
 * A NodeSet's compact state through the real engine (issue #38 item 7; node-set-reports.ts): the
 * state keeps what every node reports alike once (`sharedAttributes`) and per node only what
 * neither that nor the node's row in `rows` says (`nodeAttributes`), while a TypeScript program reads each node's whole report from
 * `nodeAttributes` and the noderange (both derived in the class). A state written before that
 * form (each node's report whole, no `sharedAttributes`, as the provider wrote it until then) is
 * imported with `pulumi stack import`, with the provider code as `pulumi.dynamic.Resource` serialized
 * it before the one-line text (thin-provider.ts), and then `up --refresh` changes nothing, writes
 * nothing, and the program still reads each node's report right. One stack: up, stack import, up.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import { PulumiWorkspace } from "./support/pulumi-workspace";

/** Node writes the emulator received: create, change, delete (a noderange in the path). */
function writes(emulator: RunningEmulator): number {
  const byRoute = emulator.stats().byRoute;
  return ["POST /nodes/{noderange}", "PUT /nodes/{noderange}", "DELETE /nodes/{noderange}"]
    .map((route) => byRoute[route] ?? 0)
    .reduce((sum, count) => sum + count, 0);
}

describe("a NodeSet's compact state, read by a TypeScript program", () => {
  let emulator: RunningEmulator;
  let ws: PulumiWorkspace;

  beforeAll(async () => {
    emulator = await startEmulator();
    ws = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs", "node-set-state-ts"),
      sandboxDir: inject("e2eSandbox"),
      env: { XCAT_URL: emulator.url, XCAT_USERNAME: "root", XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD },
    });
  });

  afterAll(async () => {
    await ws?.dispose();
    await emulator?.close();
  });

  const setResource = async () => {
    const { resources } = await ws.exportState();
    const set = resources.find((resource) => resource.urn.endsWith("::rack"));
    return set as unknown as { outputs: Record<string, unknown> };
  };

  it("records the shared values once and each node's own; the program reads each node whole", async () => {
    expect(await ws.up()).toMatchObject({ create: 2 });
    const { outputs } = await setResource();
    expect(outputs.sharedAttributes).toMatchObject({ groups: "state-rack,all", mgt: "ipmi", arch: "x86_64" });
    // Each node reports its row's ip and bmc as the row holds them: nothing is its own alone.
    expect(outputs.nodeAttributes).toEqual({ ss01: {}, ss02: {}, ss03: {} });
    const read = await ws.outputs();
    expect(read.nodes).toBe("ss[01-03]");
    expect(read.reportedNodes).toEqual(["ss01", "ss02", "ss03"]);
    // ss02's own values and the shared ones, as xCAT reports that node; never another node's.
    expect(read.ss02).toEqual(reportsOfOutputs(outputs).ss02);
    expect(read.ss02).toMatchObject({
      ip: "10.8.0.2",
      bmc: "127.0.10.92",
      groups: "state-rack,all",
      mgt: "ipmi",
      provmethod: "rocky9-x86_64-netboot-compute",
    });
    expect(read.shared).toEqual(outputs.sharedAttributes);
  });

  it("a state written by the previous version (reports whole, serialized provider code) keeps working: refresh and up change and write nothing, the program reads each node right", async () => {
    const exported = JSON.parse((await ws.exportState()).text) as {
      deployment: {
        resources: Array<{ urn: string; inputs: Record<string, unknown>; outputs: Record<string, unknown> }>;
      };
    };
    const set = exported.deployment.resources.find((resource) => resource.urn.endsWith("::rack"));
    if (set === undefined) throw new Error("the NodeSet is not in the state");
    const whole = reportsOfOutputs(set.outputs);
    const { sharedAttributes: _shared, ...rest } = set.outputs;
    // The provider code as pulumi.dynamic.Resource serialized it before the one-line text
    // (thin-provider.ts): refresh runs the outputs' text, so the old text's calls must still work.
    const serialized = await readFile(
      resolve(import.meta.dirname, "fixtures", "serialized-provider-nodeset.txt"),
      "utf8",
    );
    set.inputs = { ...set.inputs, __provider: serialized };
    set.outputs = { ...rest, nodeAttributes: whole, __provider: serialized };
    const file = join(ws.workDir, "written-whole.json");
    await writeFile(file, JSON.stringify(exported));
    await ws.run(["stack", "import", "--file", file]);
    expect((await setResource()).outputs).not.toHaveProperty("sharedAttributes");

    const before = writes(emulator);
    expect(await ws.up(["--refresh"])).toEqual({ same: 2 });
    expect(writes(emulator)).toBe(before);
    const read = await ws.outputs();
    expect(read.ss02).toEqual(whole.ss02);
    expect(read.reportedNodes).toEqual(["ss01", "ss02", "ss03"]);
    expect(read.nodes).toBe("ss[01-03]");
  });
});
