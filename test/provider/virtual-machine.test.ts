import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:VirtualMachine";

describe("xcat:VirtualMachine provider", () => {
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness();
    await h.admin.nodes.create("kvmhost01", { groups: "hypervisors", mgt: "ipmi" });
    await h.admin.nodes.create("vm01", { groups: "vms", mgt: "kvm", vmhost: "kvmhost01" });
  });
  afterEach(async () => {
    await h.close();
  });

  const vm01 = { node: "vm01", cpus: 2, memoryMiB: 4096, disksGiB: [20] };

  it("creates the guest, resizes memory, adds and grows disks in place, and deletes it", async () => {
    const { id, outs } = await h.createChecked(KIND, vm01);
    expect(id).toBe("vm01");
    expect(outs).toMatchObject({ cpus: 2, memoryMiB: 4096, disksGiB: [20], diskDevices: ["vda"] });
    expect(await h.admin.nodes.getAttrs("vm01", ["vmcpus", "vmmemory"])).toEqual({
      vmcpus: "2",
      vmmemory: "4096",
    });

    const bigger = (await runtime.check(KIND, outs, { ...vm01, memoryMiB: 8192, disksGiB: [30, 10] })).inputs;
    expect(await runtime.diff(KIND, id, outs, bigger)).toMatchObject({ changes: true, replaces: [] });
    const updated = await runtime.update(KIND, id, outs, bigger);
    expect(updated.outs).toMatchObject({ memoryMiB: 8192, disksGiB: [30, 10], diskDevices: ["vda", "vdb"] });
    const read = await runtime.read(KIND, id, updated.outs);
    expect(read.inputs).toMatchObject({ cpus: 2, memoryMiB: 8192, disksGiB: [30, 10] });

    const shrunk = (await runtime.check(KIND, updated.outs, { ...vm01, memoryMiB: 8192, disksGiB: [30] }))
      .inputs;
    expect((await runtime.diff(KIND, id, updated.outs, shrunk)).replaces).toEqual(["disksGiB"]);

    await runtime.delete(KIND, id, updated.outs);
    expect(await runtime.read(KIND, id, updated.outs)).toEqual({});
    await expect(runtime.delete(KIND, id, updated.outs)).resolves.toBeUndefined();
  });

  it("clones a guest from a master", async () => {
    await h.admin.nodes.create("golden", { groups: "vms", mgt: "kvm", vmhost: "kvmhost01" });
    await h.admin.nodes.createVm("golden", { cpuCount: 1, memorySizeMb: 2048, diskSize: "25G" });
    await h.admin.nodes.cloneVm("golden", { toMaster: "rhels9-master" });
    const { outs } = await h.createChecked(KIND, { ...vm01, disksGiB: [25], cloneFrom: "rhels9-master" });
    expect(outs).toMatchObject({ disksGiB: [25], cloneFrom: "rhels9-master" });
    expect(await h.admin.nodes.getAttrs("vm01", ["vmcpus", "vmmemory"])).toEqual({
      vmcpus: "2",
      vmmemory: "4096",
    });
  });

  it("an existing guest of another size needs adopt", async () => {
    await h.admin.nodes.createVm("vm01", { cpuCount: 1, memorySizeMb: 1024, diskSize: "20G" });
    await expect(h.createChecked(KIND, vm01)).rejects.toThrow(/different cpus, memoryMiB.*adopt: true/);
    await expect(h.createChecked(KIND, { ...vm01, adopt: true })).resolves.toMatchObject({
      outs: { memoryMiB: 4096 },
    });
  });

  it("check rejects zero and negative sizes and an empty disk list", async () => {
    const failures = async (news: Record<string, unknown>) => (await h.check(KIND, news)).failures ?? [];
    expect(await failures({ ...vm01, cpus: 0 })).toMatchObject([{ property: "cpus" }]);
    expect(await failures({ ...vm01, memoryMiB: -1 })).toMatchObject([{ property: "memoryMiB" }]);
    expect(await failures({ ...vm01, disksGiB: [] })).toMatchObject([{ property: "disksGiB" }]);
    expect(await failures({ ...vm01, disksGiB: [10, 0] })).toMatchObject([
      { property: "disksGiB", reason: expect.stringContaining("disksGiB[1]") },
    ]);
    expect(await failures({ ...vm01, cpus: "2" })).toMatchObject([{ property: "cpus" }]);
  });
});
