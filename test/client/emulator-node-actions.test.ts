/**
 * Every node sub-resource against a fresh emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isXcatError, type XcatClient } from "../../src/client";
import type { RunningEmulator } from "../../src/emulator";
import { connect, emulator } from "./support/emulator";

let emu: RunningEmulator;
let client: XcatClient;

beforeAll(async () => {
  emu = await emulator({ seed: 4 });
  client = connect(emu);
  await client.nodes.create("n01", {
    groups: ["compute", "all"],
    mgt: "ipmi",
    netboot: "xnba",
    mac: "02:00:00:00:00:11",
    bmc: "10.0.1.1",
    ip: "10.0.0.11",
  });
  await client.nodes.create("n02", {
    groups: ["compute", "all"],
    mgt: "ipmi",
    netboot: "xnba",
    mac: "02:00:00:00:00:12",
    bmc: "10.0.1.2",
    ip: "10.0.0.12",
  });
  await client.nodes.create("vm01", {
    groups: ["vms", "all"],
    mgt: "kvm",
    vmhost: "kvmhost1",
    ip: "10.0.0.21",
  });
});

afterAll(async () => {
  await client.close();
  await emu.close();
});

describe("node sub-resources", () => {
  it("writes hosts, DNS and DHCP entries", async () => {
    await client.nodes.makeHosts("compute");
    await client.nodes.makeDns("n01");
    await client.nodes.makeDhcp(["n01", "n02"]);
    await client.nodes.removeDhcp("n02");
    await client.nodes.removeDns("n01");
  });

  it("reads status, children and expands noderanges", async () => {
    const status = await client.nodes.nodestat("n01,n02");
    expect(Object.keys(status)).toEqual(["n01", "n02"]);
    expect(Object.values(status).every((s) => s === s.trim() && s.length > 0)).toBe(true);
    expect(await client.nodes.subnodes("n01")).toEqual({});
    expect(await client.nodes.nodels("compute")).toEqual(["n01", "n02"]);
    const error = await client.nodes.nodels("nosuch").catch((e: unknown) => e);
    expect(isXcatError(error) && error.messages).toEqual([
      "Invalid nodes and/or groups in noderange: nosuch",
    ]);
  });

  it("switches power and reads it back", async () => {
    await client.nodes.setPower("n01", "off");
    expect(await client.nodes.getPower("n01")).toEqual({ n01: "off" });
    await client.nodes.setPower(["n01", "n02"], "on");
    expect(await client.nodes.getPower("compute")).toEqual({ n01: "on", n02: "on" });
  });

  it("reads and sets energy values one key per request", async () => {
    expect(Object.keys((await client.nodes.getEnergy("n01")).n01 ?? {})).toContain("cappingstatus");
    await client.nodes.setEnergy("n01", { cappingstatus: "on", cappingvalue: "300" });
    expect(await client.nodes.getEnergyAttrs("n01", ["cappingstatus", "cappingvalue"])).toEqual({
      n01: { cappingstatus: "on", cappingvalue: "300 W" },
    });
  });

  it("reads and sets service-processor settings", async () => {
    expect(await client.nodes.getSp("n01", "ip")).toEqual({ n01: { "BMC IP": "10.0.1.1" } });
    await client.nodes.setSp("n01", "community", "public2");
    expect(await client.nodes.getSp("n01", "community")).toEqual({ n01: { "SP SNMP Community": "public2" } });
  });

  it("sets the next boot device and the boot state", async () => {
    await client.nodes.setNextboot("n01", "net");
    expect(await client.nodes.getNextboot("n01")).toEqual({ n01: "Network" });
    await client.osimages.copycds({ iso: "/iso/RHEL-8.6.0-x86_64-dvd.iso" });
    await client.nodes.setBootstate("n01", { osimage: "rhels8.6-x86_64-install-compute" });
    expect((await client.nodes.getBootstate("n01")).n01).toMatch(/^install /);
    await client.nodes.setBootstate("n01", { state: "offline" });
    expect(await client.nodes.getBootstate("n01")).toEqual({ n01: "offline" });
  });

  it("reads vitals and inventory, all or by item", async () => {
    const vitals = (await client.nodes.getVitals("n01")).n01 ?? {};
    const temps = (await client.nodes.getVitals("n01", ["temp"])).n01 ?? {};
    expect(Object.keys(temps).length).toBeGreaterThan(0);
    expect(Object.keys(vitals).length).toBeGreaterThan(Object.keys(temps).length);
    expect(await client.nodes.getVitalsItems("n01", ["temp", "fanspeed"])).toHaveProperty("n01");
    const inventory = (await client.nodes.getInventory("n01")).n01 ?? {};
    const model = (await client.nodes.getInventoryItems("n01", ["model"])).n01 ?? {};
    expect(Object.keys(model).length).toBeGreaterThan(0);
    expect(Object.keys(inventory).length).toBeGreaterThan(Object.keys(model).length);
  });

  it("reads and clears the event log, and drives the beacon", async () => {
    expect((await client.nodes.getEventlog("n02")).n02?.length).toBeGreaterThan(0);
    await client.nodes.clearEventlog("n02");
    const after = (await client.nodes.getEventlog("n02")).n02 ?? [];
    expect(after).toHaveLength(1);
    expect(after[0]).toMatch(/cleared/);
    await client.nodes.setBeacon("n01", "blink");
    expect(await client.nodes.getBeacon("n01")).toEqual({ n01: ["blink"] });
  });

  it("runs updatenode, xdsh and xdcp on powered nodes", async () => {
    await client.nodes.setPower("compute", "on");
    expect(Array.isArray(await client.nodes.updating("n01"))).toBe(true);
    expect(Array.isArray(await client.nodes.filesyncing("n01"))).toBe(true);
    expect(await client.nodes.sw("n01")).toHaveProperty("byNode");
    expect(await client.nodes.postscript("n01", ["syslog"])).toHaveProperty("byNode");
    const shell = await client.nodes.nodeshell("n01,n02", { command: ["hostname"], env: { LANG: "C" } });
    expect(shell.byNode.n01?.join("\n")).toContain("n01");
    expect(Object.keys(shell.byNode)).toEqual(["n01", "n02"]);
    await client.nodes.nodecopy("n01", { src: ["/etc/hosts"], target: "/tmp" });
  });

  it("reports an unreachable node's failure without retrying the action", async () => {
    await client.nodes.setPower("n02", "off");
    const before = emu.stats().total;
    const error = await client.nodes.nodeshell("n02", { command: "uptime" }).catch((e: unknown) => e);
    expect(isXcatError(error) && error.status).toBe(403);
    expect((error as Error).message).toMatch(/No route to host/);
    expect(emu.stats().total - before).toBe(1);
  });

  it("creates, changes, clones, migrates and removes a virtual machine", async () => {
    await client.nodes.createVm("vm01", { cpuCount: 2, memorySizeMb: 2048, diskSize: "20G" });
    await client.nodes.changeVm("vm01", { memorySizeMb: 4096, addDisk: ["10G"] });
    expect((await client.nodes.cloneVm("vm01", { toMaster: "master1" })).vm01).toMatch(/^Cloning of vm01/);
    await client.nodes.setPower("vm01", "on");
    expect(await client.nodes.migrateVm("vm01", "kvmhost2")).toEqual({ vm01: "migrated to kvmhost2" });
    await client.nodes.removeVm("vm01", { purge: true, force: true });
  });
});
