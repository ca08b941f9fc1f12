/**
 * The examples through the real engine against the emulator, with the package installed from
 * its npm pack tarball: up, the changes each example is about, and destroy leaving nothing of
 * what the program created.
 */

import { resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

let emulator: RunningEmulator;
let admin: XcatClient;
let workspace: PulumiWorkspace | undefined;

beforeEach(async () => {
  emulator = await startEmulator();
  admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
});

afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
  await admin.close();
  await emulator.close();
});

async function workspaceFor(example: string): Promise<PulumiWorkspace> {
  workspace = await PulumiWorkspace.create({
    programDir: resolve(import.meta.dirname, "../../examples", example),
    sandboxDir: inject("e2eSandbox"),
  });
  await workspace.setConfigs(
    { "xcat:url": emulator.url, "xcat:username": "root" },
    { "xcat:password": EMULATOR_DEFAULT_PASSWORD },
  );
  return workspace;
}

describe("examples/adopt-existing", () => {
  it("takes objects defined by hand under management without re-creating them", async () => {
    await admin.nodes.create("legacy01", {
      groups: "legacy,all",
      mgt: "ipmi",
      ip: "10.9.0.99",
      bmc: "10.9.1.1",
      usercomment: "racked by hand in 2019",
    });
    await admin.networks.create("legacy-net", { net: "10.9.0.0", mask: "255.255.0.0", gateway: "10.9.0.1" });
    await admin.osimages.create("rhels8.8-x86_64-install-compute", {
      imagetype: "linux",
      provmethod: "install",
      profile: "compute",
      osvers: "rhels8.8",
      osarch: "x86_64",
    });
    const ws = await workspaceFor("adopt-existing");
    await ws.setConfig("bmcPassword", "legacy-bmc-secret", { secret: true });

    // The preview says what adopting will change, in the text and in --json (issue #16 item 5),
    // reading each object once: the token request, the group, the node, the network and the image
    // that Osimage.get reads in any preview.
    const requestsBefore = emulator.stats().total;
    const shown = await ws.run(["preview", "--diff"]);
    expect(shown.stdout).toMatch(/adoptChanges\s*:[\s\S]*ip\s*: "10\.9\.0\.99 → 10\.9\.0\.1"/);
    expect(shown.stdout).toMatch(/mgtifname\s*: "\(unset\) → eth2"/);
    expect(emulator.stats().total - requestsBefore).toBeLessThanOrEqual(5);
    const planned = await ws.preview();
    const inputsOf = (name: string) =>
      (
        planned.steps.find((step) => step.urn.endsWith(`::${name}`)) as {
          newState?: { inputs?: Record<string, unknown> };
        }
      )?.newState?.inputs;
    expect(inputsOf("legacy01")?.adoptChanges).toEqual({ ip: "10.9.0.99 → 10.9.0.1" });
    expect(inputsOf("legacy-net")?.adoptChanges).toEqual({
      gateway: "10.9.0.1 → 10.9.0.254",
      mgtifname: "(unset) → eth2",
    });

    const applied = await ws.run(["up", "--yes", "--skip-preview"]);
    expect(`${applied.stdout}\n${applied.stderr}`).toContain(
      "adopting the node 'legacy01': ip: 10.9.0.99 → 10.9.0.1",
    );
    // The stack, the rack's group, the node and the network; the image is only read.
    expect(await ws.lastChanges()).toEqual({ create: 4 });
    expect(emulator.state.getObject("group", "legacy")).toMatchObject({ mgt: "ipmi", bmcusername: "ADMIN" });
    const node = await admin.nodes.get("legacy01");
    expect(node).toMatchObject({ ip: "10.9.0.1", usercomment: "racked by hand in 2019" }); // kept, not re-created
    expect((await admin.networks.get("legacy-net")).gateway).toBe("10.9.0.254");
    const outputs = await ws.outputs();
    expect(outputs).toMatchObject({
      siteImageProfile: "compute",
      siteImageVersion: "rhels8.8",
      legacyNetGateway: "10.9.0.254",
    });
    expect((await ws.preview()).changeSummary).toEqual({ same: 4 }); // the read image is not counted

    // A group with mgt and a BMC account clears them together (issue 16, item 1).
    expect(await ws.destroy()).toEqual({ delete: 4, discard: 1 }); // the read image is discarded, not deleted
    expect(emulator.state.listObjects("node")).toEqual([]);
    expect(emulator.state.listObjects("group")).toEqual([]);
    expect(emulator.state.listObjects("network")).toEqual([]);
    // Read with get, never managed: destroy leaves it.
    expect(emulator.state.listObjects("osimage")).toEqual(["rhels8.8-x86_64-install-compute"]);
  });
});

describe("examples/vm-lab", () => {
  it("creates a VM, resizes its memory, adds a disk, clones another from a master, and destroys them", async () => {
    // An administrator's golden guest, turned into the clone master the program clones from.
    await admin.nodes.create("golden", { groups: "masters", mgt: "kvm", vmhost: "kvmhost00" });
    await admin.nodes.createVm("golden", { cpuCount: 2, memorySizeMb: 4096, diskSize: "30G" });
    await admin.nodes.cloneVm("golden", { toMaster: "rhels9-golden" });
    const ws = await workspaceFor("vm-lab");

    await ws.setConfig("stage", "1");
    expect(await ws.up()).toEqual({ create: 4 }); // the stack, the host, vm01's node and its guest
    expect((await ws.outputs()).vm01Shape).toEqual({
      cpus: 2,
      memoryMiB: 4096,
      disksGiB: [20],
      devices: ["vda"],
    });

    await ws.setConfig("stage", "2");
    expect(await ws.up()).toEqual({ update: 1, same: 3 });
    expect(await admin.nodes.getAttrs("vm01", ["vmmemory"])).toEqual({ vmmemory: "8192" });

    await ws.setConfig("stage", "3");
    expect(await ws.up()).toEqual({ update: 1, same: 3 });
    expect((await ws.outputs()).vm01Shape).toEqual({
      cpus: 2,
      memoryMiB: 8192,
      disksGiB: [20, 10],
      devices: ["vda", "vdb"],
    });

    await ws.setConfig("stage", "4");
    expect(await ws.up()).toEqual({ create: 2, same: 4 });
    expect((await ws.outputs()).vm02Disks).toEqual([30]);

    expect(await ws.destroy()).toEqual({ delete: 6 });
    expect(await admin.nodes.list()).toEqual(["golden"]);
  });
});
