/**
 * VM resources (xcat-behavior.md §6; issue item 5): only for VM nodes; mkvm/chvm/rmvm/clonevm/
 * rmigrate change the guest and the node's vm.* attributes.
 */
import { describe, expect, it } from "vitest";
import { call, createNode, useEmulator } from "./helpers";

describe("virtual machines", () => {
  const env = useEmulator();

  it("setup", async () => {
    await createNode(env.xcat, "vm1", { groups: "vms", mgt: "kvm", vmhost: "hv1" });
    await createNode(env.xcat, "bare", { groups: "all", mgt: "ipmi" });
  });

  it("VM endpoints refuse nodes that are not VMs (§6)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/bare/vm", { body: { cpucount: "2" } });
    expect(reply.status).toBe(403);
    expect(reply.json).toEqual({
      error: [
        "bare: Unable to identify plugin for this command, check relevant tables: nodehm.mgt;nodehm.power,mgt",
      ],
      errorcode: "1",
    });
  });

  it("mkvm creates the guest and sets vmcpus, vmmemory, vmstorage (§6)", async () => {
    const reply = await call(env.xcat, "POST", "/nodes/vm1/vm", {
      body: { cpucount: "4", memorysize: "8192", disksize: "20G" },
    });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe("");
    expect(env.xcat.state.getObject("node", "vm1")).toMatchObject({
      vmcpus: "4",
      vmmemory: "8192",
      vmstorage: "dir:///var/lib/libvirt/images",
    });
    expect(env.xcat.state.getHardware("vm1").vm?.disks).toEqual([{ dev: "vda", sizeGb: 20 }]);
  });

  it("chvm adds and purges disks and changes memory (§6)", async () => {
    expect(
      (await call(env.xcat, "PUT", "/nodes/vm1/vm", { body: { adddisk: "10G,5G", memorysize: "4096" } }))
        .status,
    ).toBe(200);
    expect(env.xcat.state.getObject("node", "vm1")?.vmstorage?.split(",")).toHaveLength(3);
    await call(env.xcat, "PUT", "/nodes/vm1/vm", { body: { purgedisk: "vdb" } });
    expect(env.xcat.state.getHardware("vm1").vm?.disks.map((d) => d.dev)).toEqual(["vda", "vdc"]);
    expect(env.xcat.state.getObject("node", "vm1")?.vmmemory).toBe("4096");
  });

  it("vmclone needs tomaster or frommaster (400, errorcode 3) and answers the message (§6)", async () => {
    const none = await call(env.xcat, "POST", "/nodes/vm1/vmclone", { body: {} });
    expect(none.status).toBe(400);
    expect(none.json).toEqual({ error: "Lack of operation data.", errorcode: 3 });
    const reply = await call(env.xcat, "POST", "/nodes/vm1/vmclone", { body: { tomaster: "gold" } });
    expect(reply.status).toBe(201);
    expect((reply.json as Record<string, { vmclone: string }>).vm1?.vmclone).toMatch(
      /^Cloning of vm1\.hda\.qcow2 complete \(clone uses [\d.]+ for a disk size of 20480MB\)$/,
    );
    expect(env.xcat.state.getRows("vmmaster")[0]).toMatchObject({ name: "gold" });
  });

  it("rmigrate moves a running guest (§6)", async () => {
    expect((await call(env.xcat, "POST", "/nodes/vm1/vmmigrate", { body: {} })).status).toBe(400);
    await call(env.xcat, "PUT", "/nodes/vm1/power", { body: { action: "on" } });
    const reply = await call(env.xcat, "POST", "/nodes/vm1/vmmigrate", { body: { target: "hv2" } });
    expect(reply.status).toBe(201);
    expect(reply.json).toEqual({ vm1: { vmmigrate: "migrated to hv2" } });
    expect(env.xcat.state.getObject("node", "vm1")?.vmhost).toBe("hv2");
  });

  it("rmvm refuses a running guest without force, then removes it (§6)", async () => {
    const running = await call(env.xcat, "DELETE", "/nodes/vm1/vm", { body: { purge: "yes" } });
    expect(running.status).toBe(403);
    expect(
      (await call(env.xcat, "DELETE", "/nodes/vm1/vm", { body: { purge: "yes", force: "yes" } })).status,
    ).toBe(200);
    expect(env.xcat.state.getHardware("vm1").vm).toBeUndefined();
    expect(env.xcat.state.getObject("node", "vm1")?.vmstorage).toBeUndefined();
  });

  it("there is no GET on /vm (§6)", async () => {
    expect((await call(env.xcat, "GET", "/nodes/vm1/vm")).status).toBe(405);
  });
});
