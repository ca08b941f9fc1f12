/** Osimage, Network, Policy and Group through the provider runtime, against the emulator. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, RESOURCE_TEST_VERSIONS, runtime } from "./support";

describe.each(RESOURCE_TEST_VERSIONS)("on xCAT %s", (xcatVersion) => {
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness({ xcatVersion });
  });
  afterEach(async () => {
    await h.close();
  });

  describe("xcat:Osimage provider", () => {
    const image = {
      name: "rhels9-x86_64-netboot-compute",
      attributes: {
        imagetype: "linux",
        provmethod: "netboot",
        osvers: "rhels9.4",
        osarch: "x86_64",
        profile: "compute",
      },
    };

    it("creates, detects drift, updates, and deletes idempotently", async () => {
      const { outs } = await h.createChecked("xcat:Osimage", image);
      expect(await h.admin.osimages.get(image.name)).toMatchObject(image.attributes);
      await h.admin.osimages.update(image.name, { profile: "login" });
      const read = await runtime.read("xcat:Osimage", image.name, outs);
      expect((read.inputs as { attributes: Record<string, string> }).attributes.profile).toBe("login");
      const { inputs } = await runtime.check("xcat:Osimage", read.inputs, image);
      await runtime.update("xcat:Osimage", image.name, read.props, inputs);
      expect((await h.admin.osimages.get(image.name)).profile).toBe("compute");
      await runtime.delete("xcat:Osimage", image.name, outs);
      await runtime.delete("xcat:Osimage", image.name, outs);
      expect(await h.admin.osimages.list()).not.toContain(image.name);
    });

    it("an existing image with other values fails naming adopt; adopt makes it match", async () => {
      await h.admin.osimages.create(image.name, { ...image.attributes, profile: "other" });
      await expect(h.createChecked("xcat:Osimage", image)).rejects.toThrow(/'profile'.*adopt: true/);
      await h.createChecked("xcat:Osimage", { ...image, adopt: true });
      expect((await h.admin.osimages.get(image.name)).profile).toBe("compute");
    });
  });

  describe("xcat:Network provider", () => {
    const mgmt = {
      name: "mgmt",
      net: "10.0.0.0",
      mask: "255.255.0.0",
      attributes: { gateway: "10.0.0.254", mgtifname: "eth0" },
    };

    it("creates with net and mask, reports them as inputs on read, and replaces on rename", async () => {
      const { outs } = await h.createChecked("xcat:Network", mgmt);
      expect(await h.admin.networks.get("mgmt")).toMatchObject({
        net: "10.0.0.0",
        mask: "255.255.0.0",
        gateway: "10.0.0.254",
      });
      const read = await runtime.read("xcat:Network", "mgmt", outs);
      expect(read.inputs).toMatchObject({ name: "mgmt", net: "10.0.0.0", mask: "255.255.0.0" });
      const { inputs } = await runtime.check("xcat:Network", outs, { ...mgmt, name: "mgmt2" });
      expect((await runtime.diff("xcat:Network", "mgmt", outs, inputs)).replaces).toEqual(["name"]);
    });

    it("check rejects bad IPv4 nets and masks, and host bits under the mask", async () => {
      const failures = async (news: Record<string, unknown>) =>
        (await h.check("xcat:Network", news)).failures ?? [];
      expect(await failures({ ...mgmt, net: "10.0.0" })).toMatchObject([{ property: "net" }]);
      expect(await failures({ ...mgmt, mask: "255.0.255.0" })).toMatchObject([
        { property: "mask", reason: expect.stringContaining("contiguous") },
      ]);
      expect(await failures({ ...mgmt, net: "10.0.1.0" })).toMatchObject([
        { property: "net", reason: expect.stringContaining("host bits") },
      ]);
      expect(await failures({ name: "x", net: "10.0.0.0" })).toMatchObject([{ property: "mask" }]);
    });
  });

  describe("xcat:Policy provider", () => {
    const ops = { priority: "6.5", attributes: { name: "ops", rule: "allow", commands: "lsdef,rpower" } };

    it("creates a policy and refuses to overwrite a different existing one (xCAT's POST would)", async () => {
      const { id, outs } = await h.createChecked("xcat:Policy", ops);
      expect(id).toBe("6.5");
      expect(outs.name).toBe("6.5");
      expect(await h.admin.policy.get("6.5")).toMatchObject(ops.attributes);

      await h.admin.policy.create("7", { name: "someone", rule: "deny" });
      const before = h.emulator.state.snapshot();
      await expect(
        h.createChecked("xcat:Policy", { priority: "7", attributes: { name: "ops", rule: "allow" } }),
      ).rejects.toThrow(/policy '7' already exists.*adopt/);
      expect(h.emulator.state.snapshot()).toBe(before);
    });

    it("check rejects a bad priority", async () => {
      expect((await h.check("xcat:Policy", { ...ops, priority: "six" })).failures).toMatchObject([
        { property: "priority" },
      ]);
      expect((await h.check("xcat:Policy", { ...ops, priority: 6 })).failures).toMatchObject([
        { property: "priority" },
      ]);
    });
  });

  describe("xcat:Group provider", () => {
    it("sets group attributes that member nodes inherit, and delete clears them and the definition", async () => {
      await h.admin.nodes.create("cn001", { groups: "compute,all" });
      const { outs } = await h.createChecked("xcat:Group", {
        name: "compute",
        attributes: { mgt: "ipmi", netboot: "xnba" },
      });
      expect(await h.admin.nodes.get("cn001")).toMatchObject({ mgt: "ipmi", netboot: "xnba" });
      expect((outs.allAttributes as Record<string, string>).members).toBe("cn001");

      await runtime.delete("xcat:Group", "compute", outs);
      const node = await h.admin.nodes.get("cn001");
      expect(node.mgt).toBeUndefined();
      expect(await h.admin.tables.getRows("nodegroup", { groupname: "compute" })).toEqual([]);
      await expect(runtime.delete("xcat:Group", "compute", outs)).resolves.toBeUndefined();
    });

    it("destroying a Group with mgt and bmcusername clears them (also where xcatws drops empty values)", async () => {
      // 2.16.5:xCAT-server/xCAT-wsapi/xcatws.cgi:2096 drops {"mgt": ""}; see docs/xcat-versions.md.
      const { outs } = await h.createChecked("xcat:Group", {
        name: "bmcgrp",
        attributes: { mgt: "ipmi", bmcusername: "ADMIN" },
      });
      expect(h.emulator.state.getObject("group", "bmcgrp")).toMatchObject({
        mgt: "ipmi",
        bmcusername: "ADMIN",
      });
      await runtime.delete("xcat:Group", "bmcgrp", outs);
      const group = h.emulator.state.getObject("group", "bmcgrp") ?? {};
      expect([group.mgt, group.bmcusername]).toEqual([undefined, undefined]);
    });

    it("a group that exists only through its members is taken; one with other values needs adopt", async () => {
      await h.admin.nodes.create("cn001", { groups: "compute" });
      await expect(
        h.createChecked("xcat:Group", { name: "compute", attributes: { mgt: "ipmi" } }),
      ).resolves.toBeDefined();
      await h.admin.groups.update("compute", { netboot: "pxe" });
      await expect(
        h.createChecked("xcat:Group", { name: "compute", attributes: { netboot: "xnba" } }),
      ).rejects.toThrow(/adopt/);
    });
  });

  describe("xcat:GlobalConfAttribute provider", () => {
    it("sets a site attribute and restores the value it found on delete", async () => {
      const before = (await h.admin.globalconf.getAttrs(["domain"])).domain;
      const { outs } = await h.createChecked("xcat:GlobalConfAttribute", {
        name: "domain",
        value: "lab.example.org",
      });
      expect(outs.previousValue).toBe(before ?? null);
      expect((await h.admin.globalconf.getAttrs(["domain"])).domain).toBe("lab.example.org");
      await runtime.delete("xcat:GlobalConfAttribute", "domain", outs);
      expect((await h.admin.globalconf.getAttrs(["domain"])).domain).toBe(before);
    });

    it("removes an attribute it created, and reports one removed by hand as gone", async () => {
      const { outs } = await h.createChecked("xcat:GlobalConfAttribute", {
        name: "mylabsetting",
        value: "on",
      });
      expect(outs.previousValue).toBeNull();
      await h.admin.globalconf.setAttrs({ mylabsetting: "off" });
      expect((await runtime.read("xcat:GlobalConfAttribute", "mylabsetting", outs)).inputs).toMatchObject({
        value: "off",
      });
      await runtime.delete("xcat:GlobalConfAttribute", "mylabsetting", outs);
      expect(await h.admin.globalconf.getAttrs(["mylabsetting"])).toEqual({});
      expect(await runtime.read("xcat:GlobalConfAttribute", "mylabsetting", outs)).toEqual({});
    });

    it("check rejects an empty value and a bad name", async () => {
      expect(
        (await h.check("xcat:GlobalConfAttribute", { name: "domain", value: "" })).failures,
      ).toMatchObject([{ property: "value" }]);
      expect((await h.check("xcat:GlobalConfAttribute", { name: "a b", value: "x" })).failures).toMatchObject(
        [{ property: "name" }],
      );
    });
  });

  describe("xcat:TableRow provider", () => {
    const route = {
      table: "routes",
      keys: { routename: "privnet" },
      values: { net: "10.2.0.0", mask: "255.255.0.0", gateway: "10.0.0.254", ifname: "eth1" },
    };

    it("creates a keyed row with its id, manages only declared columns, and deletes it", async () => {
      const { id, outs } = await h.createChecked("xcat:TableRow", route);
      expect(id).toBe("routes:routename=privnet");
      expect(await h.admin.tables.getRows("routes", { routename: "privnet" })).toMatchObject([route.values]);

      await h.admin.tables.setRows(
        "routes",
        { routename: "privnet" },
        { gateway: "10.0.0.1", comments: "hand" },
      );
      const read = await runtime.read("xcat:TableRow", id, outs);
      expect((read.inputs as { values: Record<string, string> }).values).toEqual({
        ...route.values,
        gateway: "10.0.0.1",
      });
      const { inputs } = await runtime.check("xcat:TableRow", read.inputs, route);
      await runtime.update("xcat:TableRow", id, read.props, inputs);
      expect(await h.admin.tables.getRows("routes", { routename: "privnet" })).toMatchObject([
        { gateway: "10.0.0.254", comments: "hand" },
      ]);

      await runtime.delete("xcat:TableRow", id, outs);
      expect(await h.admin.tables.getRows("routes", { routename: "privnet" })).toEqual([]);
      expect(await runtime.read("xcat:TableRow", id, outs)).toEqual({});
    });

    it("reads a row by id alone (TableRow.get) and handles node-keyed tables", async () => {
      await h.admin.nodes.create("cn001", { groups: "all" });
      const { id } = await h.createChecked("xcat:TableRow", {
        table: "nodetype",
        keys: { node: "cn001" },
        values: { arch: "ppc64le" },
      });
      expect(id).toBe("nodetype:node=cn001");
      expect((await h.admin.nodes.get("cn001")).arch).toBe("ppc64le");
      expect((await runtime.read("xcat:TableRow", id, {})).inputs).toMatchObject({
        table: "nodetype",
        keys: { node: "cn001" },
        values: { arch: "ppc64le" },
      });
    });

    it("check requires exactly the table's key columns and known columns", async () => {
      const failures = async (news: Record<string, unknown>) =>
        (await h.check("xcat:TableRow", news)).failures ?? [];
      expect(await failures({ ...route, table: "nosuch" })).toEqual([
        { property: "table", reason: "'nosuch' is not an xCAT table" },
      ]);
      expect(await failures({ ...route, keys: { node: "x" } })).toMatchObject([
        {
          property: "keys",
          reason: expect.stringContaining("exactly the key columns of table 'routes' (routename)"),
        },
      ]);
      expect(
        await failures({
          table: "networks",
          keys: { net: "10.0.0.0" },
          values: { netname: "n1", gateway: "10.0.0.1" },
        }),
      ).toEqual([
        {
          property: "keys",
          reason: "keys must be exactly the key columns of table 'networks' (net, mask); missing mask",
        },
      ]);
      expect(await failures({ ...route, values: { nosuchcolumn: "x" } })).toMatchObject([
        { property: "values" },
      ]);
      expect(await failures({ ...route, values: {} })).toMatchObject([{ property: "values" }]);
    });
  });
});
