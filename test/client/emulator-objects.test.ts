/**
 * Object categories against a fresh emulator: tokens, nodes, groups, osimages, networks, policy,
 * globalconf, services and tables.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  XcatClient as Client,
  isAlreadyExists,
  isAuthError,
  isNotFound,
  isUsageError,
  isXcatError,
  type XcatClient,
} from "../../src/client";
import type { RunningEmulator } from "../../src/emulator";
import { connect, emulator } from "./support/emulator";

let emu: RunningEmulator;
let client: XcatClient;

beforeAll(async () => {
  emu = await emulator();
  client = connect(emu);
});

afterAll(async () => {
  await client.close();
  await emu.close();
});

describe("tokens", () => {
  it("issues a token with a readable expiry", async () => {
    const token = await client.tokens.create();
    expect(token.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(token.expiresAt?.getTime()).toBeGreaterThan(Date.now());
  });

  it("works with a given token", async () => {
    const { id } = await client.tokens.create();
    const byToken = new Client({ url: emu.url, token: id, logger: {} });
    expect(await byToken.policy.list()).toContain("1");
    await byToken.close();
  });

  it("refuses a wrong password with an auth error that does not show it", async () => {
    const wrong = connect(emu, { password: "not-the-password" });
    const error = await wrong.nodes.list().catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
    expect(JSON.stringify(error) + String(error)).not.toContain("not-the-password");
    await wrong.close();
  });

  it("reports 'never' expiring tokens", async () => {
    await client.globalconf.setAttrs({ tokenexpiredays: "never" });
    const token = await client.tokens.create();
    expect(token.expire).toBe("never");
    expect(token.expiresAt).toBeUndefined();
    await client.globalconf.deleteAttrs(["tokenexpiredays"]);
  });
});

describe("nodes", () => {
  it("lists none as []", async () => {
    expect(await client.nodes.list()).toEqual([]);
  });

  it("creates, reads, updates and deletes a node", async () => {
    await client.nodes.create("cn01", {
      groups: ["compute", "all"],
      mgt: "ipmi",
      bmc: "10.0.1.1",
      hidden: "0",
    });
    expect(await client.nodes.list()).toEqual(["cn01"]);
    expect(await client.nodes.get("cn01")).toMatchObject({
      groups: "compute,all",
      mgt: "ipmi",
      bmc: "10.0.1.1",
      hidden: "0",
    });
    expect(emu.state.getObject("node", "cn01")).toMatchObject({ bmc: "10.0.1.1" });

    await client.nodes.update("cn01", { usercomment: "rack 4", bmc: "" });
    const after = await client.nodes.getAttrs("cn01", ["usercomment", "bmc", "arch"]);
    expect(after).toEqual({ usercomment: "rack 4", bmc: "", arch: "" });

    await client.nodes.delete("cn01");
    await expect(client.nodes.get("cn01")).rejects.toSatisfy(isNotFound);
  });

  it("reports an existing node on create and a missing one on delete", async () => {
    await client.nodes.create("cn02", { groups: "all" });
    const error = await client.nodes.create("cn02", { groups: "all" }).catch((e: unknown) => e);
    expect(isAlreadyExists(error)).toBe(true);
    expect((error as Error).message).toBe(
      `POST /xcatws/nodes/cn02 failed: 403 errorcode=1 "0 object definitions have been created or modified."`,
    );
    await client.nodes.delete("cn02");
    await expect(client.nodes.delete("cn02")).rejects.toSatisfy(isNotFound);
    await client.nodes.delete("cn02", { ignoreMissing: true });
  });

  it("reads many nodes at once, skipping missing names, by list, range and xcoll", async () => {
    for (const name of ["cn10", "cn11", "cn12"])
      await client.nodes.create(name, { groups: "batch,all", arch: "x86_64" });
    const byList = await client.nodes.getMany(["cn10", "cn11", "gone"]);
    expect([...byList.keys()]).toEqual(["cn10", "cn11"]);
    const byRange = await client.nodes.getMany("cn1[0-2]", { attrs: ["arch"], xcoll: true });
    expect(Object.fromEntries(byRange)).toEqual({
      cn10: { arch: "x86_64" },
      cn11: { arch: "x86_64" },
      cn12: { arch: "x86_64" },
    });
    expect((await client.nodes.getMany("batch")).size).toBe(3);
    await client.nodes.delete(["cn10", "cn11", "cn12"]);
  });

  it("reports xCAT's refusal with method, path, status, errorcode and message", async () => {
    await client.nodes.create("cn03", { groups: "all" });
    const error = await client.nodes.update("cn03", { foo: "x" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      `PUT /xcatws/nodes/cn03 failed: 403 errorcode=1 "'foo' is not a valid attribute name for an object type of 'node'."`,
    );
    await client.nodes.delete("cn03");
  });

  it("refuses a bad name before sending anything", async () => {
    const before = emu.stats().total;
    const error = await client.nodes.get("../tokens").catch((e: unknown) => e);
    expect(isUsageError(error)).toBe(true);
    expect((error as Error).message).toMatch(/node name "\.\.\/tokens" contains '\/'/);
    expect(emu.stats().total).toBe(before);
  });
});

describe("groups", () => {
  it("lists groups named by nodes, shows members and hands group attributes down", async () => {
    await client.nodes.create("gn01", { groups: "gpu,all" });
    await client.nodes.create("gn02", { groups: "gpu,all" });
    expect(await client.groups.list()).toEqual(expect.arrayContaining(["all", "gpu"]));
    await client.groups.update("gpu", { netboot: "xnba" });
    expect(await client.groups.get("gpu")).toMatchObject({ members: "gn01,gn02", netboot: "xnba" });
    expect(await client.groups.getAttrs("gpu", ["members"])).toEqual({ members: "gn01,gn02" });
    expect((await client.groups.getMany(["gpu", "all"])).size).toBe(2);
    expect(await client.nodes.getAttrs("gn02", ["netboot"])).toEqual({ netboot: "xnba" });
    await client.nodes.delete("gn01,gn02");
  });
});

describe("osimages", () => {
  it("imports media and manages definitions", async () => {
    await client.osimages.copycds({ iso: "/iso/RHEL-8.6.0-x86_64-dvd.iso" });
    expect(await client.osimages.list()).toContain("rhels8.6-x86_64-netboot-compute");
    await client.osimages.create("custom", {
      imagetype: "linux",
      provmethod: "netboot",
      osvers: "rhels8.6",
      osarch: "x86_64",
    });
    await expect(client.osimages.create("custom", { imagetype: "linux" })).rejects.toSatisfy(isAlreadyExists);
    await client.osimages.update("custom", { profile: "compute" });
    expect(await client.osimages.getAttrs("custom", ["profile", "osvers"])).toEqual({
      profile: "compute",
      osvers: "rhels8.6",
    });
    expect((await client.osimages.get("custom")).imagetype).toBe("linux");
    await client.osimages.delete("custom");
    await expect(client.osimages.get("custom")).rejects.toSatisfy(isNotFound);
  });

  it("generates, packs and removes an image instance", async () => {
    await client.osimages.instance("rhels8.6-x86_64-netboot-compute", "gen");
    await client.osimages.instance("rhels8.6-x86_64-netboot-compute", "pack");
    await client.osimages.removeInstance("rhels8.6-x86_64-netboot-compute");
    const error = await client.osimages
      .removeInstance("rhels8.6-x86_64-netboot-compute")
      .catch((e: unknown) => e);
    expect(isXcatError(error) && error.status).toBe(403);
  });
});

describe("networks", () => {
  it("creates, refuses a duplicate, reads, updates, discovers and deletes", async () => {
    await client.networks.create("mgmt", { net: "10.0.0.0", mask: "255.255.0.0", gateway: "10.0.0.254" });
    await expect(client.networks.create("mgmt", { net: "10.0.0.0", mask: "255.255.0.0" })).rejects.toSatisfy(
      isAlreadyExists,
    );
    await client.networks.update("mgmt", { mgtifname: "eth1" });
    expect(await client.networks.get("mgmt")).toMatchObject({
      net: "10.0.0.0",
      mask: "255.255.0.0",
      mgtifname: "eth1",
    });
    expect(await client.networks.getAttrs("mgmt", ["gateway", "dhcpserver"])).toEqual({
      gateway: "10.0.0.254",
      dhcpserver: "",
    });
    await client.networks.makenetworks();
    expect((await client.networks.list()).length).toBeGreaterThan(1);
    await client.networks.delete("mgmt");
    expect(await client.networks.list()).not.toContain("mgmt");
  });
});

describe("policy", () => {
  it("creates a rule only once and manages it", async () => {
    expect(await client.policy.get("1")).toMatchObject({ name: "root", rule: "allow" });
    await client.policy.create("6", { name: "alice", rule: "allow" });
    await expect(client.policy.create("6", { name: "mallory", rule: "allow" })).rejects.toSatisfy(
      isAlreadyExists,
    );
    await client.policy.update("6", { commands: "lsdef" });
    expect(await client.policy.getAttrs("6", ["name", "commands"])).toEqual({
      name: "alice",
      commands: "lsdef",
    });
    expect([...(await client.policy.getMany(["1", "6"])).keys()]).toEqual(["1", "6"]);
    await client.policy.delete("6");
    expect(await client.policy.list()).not.toContain("6");
  });
});

describe("globalconf", () => {
  it("reads, sets (keeping a literal 0) and deletes site attributes", async () => {
    expect((await client.globalconf.get()).domain).toBeDefined();
    await client.globalconf.setAttrs({ k1: "a", k2: "0" });
    expect(await client.globalconf.getAttrs(["k1", "k2", "missing"])).toEqual({ k1: "a", k2: "0" });
    await client.globalconf.deleteAttrs(["k1", "k2"]);
    expect(await client.globalconf.getAttrs(["k1", "k2"])).toEqual({});
  });
});

describe("services", () => {
  it("regenerates DNS, DHCP and hosts, and lists SLP hardware", async () => {
    await client.services.makeHosts();
    await client.services.makeDns();
    await client.services.makeDhcp();
    const all = await client.services.slpnodes();
    const cmms = await client.services.slpnodes("CMM");
    expect(Object.keys(all).length).toBeGreaterThan(Object.keys(cmms).length);
    expect(Object.values(cmms).every((n) => n.hwtype === "cmm")).toBe(true);
  });
});

describe("tables", () => {
  it("reads and writes node tables", async () => {
    await client.nodes.create("tn01", { groups: "all" });
    await client.tables.setNodeRows("tn01", { nodetype: { arch: "ppc64le" }, noderes: { netboot: "grub2" } });
    expect(await client.tables.getNodeRows(["nodetype", "noderes"], "tn01")).toEqual({
      nodetype: [{ name: "tn01", arch: "ppc64le" }],
      noderes: [{ name: "tn01", netboot: "grub2" }],
    });
    expect(await client.tables.getNodeRows("nodetype", ["tn01"], ["arch"])).toEqual({
      nodetype: [{ name: "tn01", arch: "ppc64le" }],
    });
    await client.nodes.delete("tn01");
  });

  it("creates, reads and deletes keyed rows", async () => {
    const keys = { routename: "privnet" };
    await client.tables.setRows("routes", keys, {
      net: "10.1.0.0",
      mask: "255.255.0.0",
      gateway: "10.0.0.1",
    });
    expect(await client.tables.getRows("routes", keys)).toEqual([
      { routename: "privnet", net: "10.1.0.0", mask: "255.255.0.0", gateway: "10.0.0.1" },
    ]);
    expect(await client.tables.getRows("routes", keys, ["gateway"])).toEqual([{ gateway: "10.0.0.1" }]);
    expect((await client.tables.getAllRows(["routes"])).routes).toHaveLength(1);
    await client.tables.deleteRows("routes", keys);
    expect(await client.tables.getRows("routes", keys)).toEqual([]);
    expect(await client.tables.getAllRows("routes")).toEqual({ routes: [] });
  });
});
