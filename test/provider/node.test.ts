import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, RESOURCE_TEST_VERSIONS, runtime } from "./support";

const KIND = "xcat:Node";

describe.each(RESOURCE_TEST_VERSIONS)("xcat:Node provider on xCAT %s", (xcatVersion) => {
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness({ xcatVersion });
  });
  afterEach(async () => {
    await h.close();
  });

  const cn001 = {
    name: "cn001",
    groups: ["compute", "all"],
    attributes: { mgt: "ipmi", bmc: "10.1.0.1", ip: "10.0.0.1", arch: "x86_64" },
    secretAttributes: { bmcpassword: "s3cret" },
  };

  it("creates the node with exactly the declared attributes and reports allAttributes without secrets", async () => {
    const { id, outs } = await h.createChecked(KIND, cn001);
    expect(id).toBe("cn001");
    const node = await h.admin.nodes.get("cn001");
    expect(node).toMatchObject({
      groups: "compute,all",
      mgt: "ipmi",
      bmc: "10.1.0.1",
      ip: "10.0.0.1",
      bmcpassword: "s3cret",
    });
    expect(outs.name).toBe("cn001");
    const all = outs.allAttributes as Record<string, string>;
    expect(all.mgt).toBe("ipmi");
    expect(all.bmcpassword).toBeUndefined();
    expect(all.postscripts).toContain("syslog"); // xCAT's defaults show up in what xCAT reports
  });

  it("records each node's own values from a group's regex ip and bmc in allAttributes (issue #27 item 2)", async () => {
    // xCAT expands |pattern|replacement| per node name (Table.pm transRegexAttrs, master 2647-2700).
    await h.admin.groups.update("rack03", {
      mgt: "ipmi",
      ip: "|r(\\d+)n(\\d+)|10.3.($1+0).($2+0)|",
      bmc: "|r(\\d+)n(\\d+)|10.13.($1+0).($2+0)|",
    });
    const names = ["r03n01", "r03n02", "r03n03", "r03n04", "r03n05"];
    const created = await Promise.all(
      names.map((name) =>
        h.createChecked(KIND, { name, groups: ["rack03", "all"], attributes: { arch: "x86_64" } }),
      ),
    );
    const held = await h.admin.nodes.getMany(names);
    for (const [i, name] of names.entries()) {
      const all = created[i]?.outs.allAttributes as Record<string, string>;
      expect(all.ip).toBe(`10.3.3.${i + 1}`);
      expect({ ip: all.ip, bmc: all.bmc }).toEqual({ ip: held.get(name)?.ip, bmc: held.get(name)?.bmc });
    }
  });

  it("read reports drift in managed attributes and ignores unmanaged ones; update puts it back", async () => {
    const { outs } = await h.createChecked(KIND, cn001);
    await h.admin.nodes.update("cn001", { ip: "10.0.0.99", room: "b12" }); // a hand edit
    const read = await runtime.read(KIND, "cn001", outs);
    expect(read.inputs).toMatchObject({ name: "cn001", groups: ["compute", "all"] });
    expect((read.inputs as { attributes: Record<string, string> }).attributes).toEqual({
      mgt: "ipmi",
      bmc: "10.1.0.1",
      ip: "10.0.0.99",
      arch: "x86_64",
    });
    const checked = await runtime.check(KIND, read.inputs, cn001);
    const diff = await runtime.diff(KIND, "cn001", read.props, checked.inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await runtime.update(KIND, "cn001", read.props, checked.inputs);
    const node = await h.admin.nodes.get("cn001");
    expect(node.ip).toBe("10.0.0.1");
    expect(node.room).toBe("b12"); // not managed, left alone
  });

  it("removing an attribute from the program clears it", async () => {
    const { outs } = await h.createChecked(KIND, cn001);
    const { inputs } = await runtime.check(KIND, outs, {
      ...cn001,
      attributes: { mgt: "ipmi", bmc: "10.1.0.1", arch: "x86_64" },
    });
    await runtime.update(KIND, "cn001", outs, inputs);
    expect((await h.admin.nodes.get("cn001")).ip).toBeUndefined();
  });

  it("a new name replaces the node, deleting the old one first", async () => {
    const { outs } = await h.createChecked(KIND, cn001);
    const { inputs } = await runtime.check(KIND, outs, { ...cn001, name: "cn002" });
    expect(await runtime.diff(KIND, "cn001", outs, inputs)).toEqual({
      changes: true,
      replaces: ["name"],
      deleteBeforeReplace: true,
    });
    expect(
      await runtime.diff(KIND, "cn001", outs, (await runtime.check(KIND, outs, cn001)).inputs),
    ).toMatchObject({
      changes: false,
    });
  });

  it("an identical existing node is taken without error; a different one fails naming adopt and is unchanged", async () => {
    await h.admin.nodes.create("cn001", {
      groups: "compute,all",
      mgt: "ipmi",
      bmc: "10.1.0.1",
      ip: "10.0.0.1",
      arch: "x86_64",
      bmcpassword: "s3cret",
    });
    await expect(h.createChecked(KIND, cn001)).resolves.toMatchObject({ id: "cn001" });

    await h.admin.nodes.update("cn001", { ip: "10.0.0.50" });
    const before = h.emulator.state.snapshot();
    await expect(h.createChecked(KIND, cn001)).rejects.toThrow(
      /already exists in xCAT with different values for 'ip'.*check that no other resource of this program claims the same object.*adopt: true/,
    );
    expect(h.emulator.state.snapshot()).toBe(before);

    await h.createChecked(KIND, { ...cn001, adopt: true });
    expect((await h.admin.nodes.get("cn001")).ip).toBe("10.0.0.1");
  });

  it("delete is idempotent, and read of a node deleted by hand reports it gone", async () => {
    const { outs } = await h.createChecked(KIND, cn001);
    await h.admin.nodes.delete("cn001");
    expect(await runtime.read(KIND, "cn001", outs)).toEqual({});
    await expect(runtime.delete(KIND, "cn001", outs)).resolves.toBeUndefined();
  });

  it("Node.get reads every attribute as declared", async () => {
    await h.admin.nodes.create("svc01", { groups: "service", mgt: "ipmi", bmcpassword: "pw" });
    const read = await runtime.read(KIND, "svc01", {});
    expect(read.inputs).toMatchObject({
      name: "svc01",
      groups: ["service"],
      secretAttributes: { bmcpassword: "pw" },
    });
    expect((read.inputs as { attributes: Record<string, string> }).attributes.mgt).toBe("ipmi");
  });

  it("check rejects bad names, missing groups and unknown attributes, naming the field", async () => {
    const failures = async (news: Record<string, unknown>) => (await h.check(KIND, news)).failures ?? [];
    expect(await failures({ ...cn001, name: "bad/name" })).toEqual([
      { property: "name", reason: "name 'bad/name' must not contain '/'" },
    ]);
    expect(await failures({ ...cn001, name: "a.b" })).toMatchObject([{ property: "name" }]);
    expect(await failures({ name: "cn001" })).toMatchObject([
      { property: "groups", reason: expect.stringContaining("required") },
    ]);
    expect(await failures({ ...cn001, groups: [] })).toMatchObject([{ property: "groups" }]);
    expect(await failures({ ...cn001, attributes: { vmmemori: "4096" } })).toEqual([
      {
        property: "attributes",
        reason: "attributes: 'vmmemori' is not a node attribute in xCAT's schema (did you mean 'vmmemory'?)",
      },
    ]);
    expect(await failures({ ...cn001, attributes: { groups: "x" } })).toMatchObject([
      { property: "attributes", reason: expect.stringContaining("is set by the 'groups' input") },
    ]);
    expect(await failures({ ...cn001, attributes: { mgt: 5 } })).toMatchObject([{ property: "attributes" }]);
  });

  it("check accepts unknown values during preview", async () => {
    const unknown = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    expect(
      (await h.check(KIND, { name: unknown, groups: unknown, attributes: unknown })).failures,
    ).toBeUndefined();
  });
});
