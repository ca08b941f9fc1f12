/**
 * A clear sent through the client reaches the database on every xCAT release, including 2.16.5,
 * whose xcatws drops empty values from object bodies (2.16.5:xCAT-server/xCAT-wsapi/xcatws.cgi:2096;
 * docs/xcat-versions.md). The client sends " ", which chdef reads as the empty value
 * (2.16.5:xCAT-server/lib/xcat/plugins/DBobjectdefs.pm:798).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import { type RunningEmulator, XCAT_VERSIONS } from "../../src/emulator";
import { connect, emulator } from "./support/emulator";

describe.each(XCAT_VERSIONS)("xCAT %s", (version) => {
  let emu: RunningEmulator;
  let plain: XcatClient;
  let merging: XcatClient;
  beforeAll(async () => {
    emu = await emulator({ xcatVersion: version });
    plain = connect(emu);
    merging = connect(emu, { batching: true });
  });
  afterAll(async () => {
    await plain.close();
    await merging.close();
    await emu.close();
  });

  it("nodes.update with '' clears ip (one request, and merged with other nodes)", async () => {
    await plain.nodes.create("c1", { groups: "all", ip: "10.0.0.1", usercomment: "a" });
    await plain.nodes.update("c1", { ip: "", usercomment: "" });
    expect(emu.state.getObject("node", "c1")).not.toHaveProperty("ip");
    expect(emu.state.getObject("node", "c1")).not.toHaveProperty("usercomment");

    await plain.nodes.create("c2", { groups: "all", ip: "10.0.0.2" });
    await plain.nodes.create("c3", { groups: "all", ip: "10.0.0.3" });
    const before = emu.stats().byRoute["PUT /nodes/{noderange}"] ?? 0;
    await Promise.all(["c2", "c3"].map((name) => merging.nodes.update(name, { ip: "" })));
    expect(emu.stats().byRoute["PUT /nodes/{noderange}"]).toBe(before + 1);
    expect(emu.state.getObject("node", "c2")).not.toHaveProperty("ip");
    expect(emu.state.getObject("node", "c3")).not.toHaveProperty("ip");
  });

  it("groups.update with '' clears mgt and bmcusername of the group's own row", async () => {
    await plain.groups.update("bmcgrp", { mgt: "ipmi", bmcusername: "ADMIN" });
    await plain.groups.update("bmcgrp", { mgt: "", bmcusername: "" });
    const group = emu.state.getObject("group", "bmcgrp") ?? {};
    expect([group.mgt, group.bmcusername]).toEqual([undefined, undefined]);
  });

  it("osimages, networks and policy clear the same way", async () => {
    await plain.osimages.update("img", { imagetype: "linux", description: "d", osvers: "rocky9" });
    await plain.osimages.update("img", { description: "" });
    expect(emu.state.getObject("osimage", "img")).not.toHaveProperty("description");
    await plain.networks.create("net1", { net: "10.9.0.0", mask: "255.255.0.0", gateway: "10.9.0.1" });
    await plain.networks.update("net1", { gateway: "" });
    expect(emu.state.getObject("network", "net1")).not.toHaveProperty("gateway");
    await plain.policy.create("42", { name: "bob", commands: "lsdef", rule: "allow" });
    await plain.policy.update("42", { commands: "" });
    expect(emu.state.getObject("policy", "42")).not.toHaveProperty("commands");
  });
});
