/**
 * A node's own values against a fresh emulator (issue #36 item 5). lsdef puts the xcatdefaults
 * scripts in front of a node's own (`syslog,remoteshell,syncfiles,custom`; xcat-behavior.md §5.2,
 * DBobjUtils.pm ~3845-3885) and shows what the node inherits from its groups. A program declares
 * the node's own scripts and the provider compares those; `Resource.get` (what `pulumi import`
 * turns into its snippet) takes only what the node does not inherit.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Node";
/** The stock xcatdefaults row of a fresh management node (src/contract/fresh-management-node.ts). */
const DEFAULTS = "syslog,remoteshell,syncfiles";

describe("xcat:Node: the node's own values", () => {
  let h: ProviderHarness;
  beforeEach(async () => {
    h = await providerHarness();
    await h.admin.groups.update("compute", { mgt: "ipmi", postscripts: "confignetwork", arch: "x86_64" });
  });
  afterEach(async () => {
    await h.close();
  });

  const defaultsReads = () => h.emulator.stats().byRoute["GET /tables/{tablelist}/rows/{keys}/{attrs}"] ?? 0;

  it("a node declaring its own scripts gets them once and reads back without drift", async () => {
    const news = { name: "cn01", groups: ["compute", "all"], attributes: { postscripts: "custom" } };
    const { outs } = await h.createChecked(KIND, news);
    // xCAT stores the node's own value; lsdef shows the defaults in front, not twice.
    expect((await h.admin.nodes.get("cn01")).postscripts).toBe(`${DEFAULTS},custom`);
    expect((outs.allAttributes as Record<string, string>).postscripts).toBe(`${DEFAULTS},custom`);
    const read = await runtime.read(KIND, "cn01", outs);
    expect((read.inputs as { attributes: Record<string, string> }).attributes).toEqual({
      postscripts: "custom",
    });
    const checked = await runtime.check(KIND, read.inputs, news);
    expect((await runtime.diff(KIND, "cn01", read.props, checked.inputs)).changes).toBe(false);
  });

  it("adopting a node whose own scripts match sends no write; one whose scripts differ gets only its own", async () => {
    await h.admin.nodes.create("cn02", { groups: "compute,all", postscripts: "custom" });
    await h.admin.nodes.create("cn03", { groups: "compute,all", postscripts: "old" });
    const writes = () =>
      Object.entries(h.emulator.stats().byRoute)
        .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
        .reduce((sum, [, count]) => sum + count, 0);
    const before = writes();
    await h.createChecked(KIND, {
      name: "cn02",
      groups: ["compute", "all"],
      attributes: { postscripts: "custom" },
      adopt: true,
    });
    expect(writes()).toBe(before);
    await h.createChecked(KIND, {
      name: "cn03",
      groups: ["compute", "all"],
      attributes: { postscripts: "new" },
      adopt: true,
    });
    expect(writes()).toBe(before + 1);
    expect((await h.admin.nodes.get("cn03")).postscripts).toBe(`${DEFAULTS},new`);
    // The xcatdefaults row was read once for the process, not per node.
    expect(defaultsReads()).toBe(1);
  });

  it("a node that manages no scripts costs no read of the defaults", async () => {
    const { outs } = await h.createChecked(KIND, {
      name: "cn04",
      groups: ["compute"],
      attributes: { ip: "10.0.0.4" },
    });
    await runtime.read(KIND, "cn04", outs);
    expect(defaultsReads()).toBe(0);
  });

  it("Resource.get takes the node's own values, not its group's, xCAT's defaults or nodeset's", async () => {
    await h.admin.osimages.create("rocky9-compute", {
      imagetype: "linux",
      provmethod: "netboot",
      profile: "compute",
      osvers: "rocky9.4",
      osarch: "x86_64",
    });
    await h.admin.nodes.create("cn05", {
      groups: "compute,all",
      ip: "10.0.0.5",
      postscripts: "custom",
      provmethod: "rocky9-compute",
      os: "rocky9.4",
      arch: "x86_64",
      profile: "compute",
      status: "booted",
    });
    const read = await runtime.read(KIND, "cn05", {});
    expect(read.inputs).toMatchObject({ name: "cn05", groups: ["compute", "all"] });
    expect((read.inputs as { attributes: Record<string, string> }).attributes).toEqual({
      ip: "10.0.0.5",
      postscripts: "custom",
    });
    // Outputs still show everything xCAT reports, the image nodeset wrote among it.
    expect((read.props.allAttributes as Record<string, string>).postscripts).toBe(`${DEFAULTS},custom`);
    expect((read.props.allAttributes as Record<string, string>).mgt).toBe("ipmi");
    expect((read.props.allAttributes as Record<string, string>).provmethod).toBe("rocky9-compute");
  });

  it("Resource.get keeps provmethod on a node that has not booted its image, or whose image the server lacks", async () => {
    await h.admin.osimages.create("rocky9-compute", {
      imagetype: "linux",
      provmethod: "netboot",
      profile: "compute",
      osvers: "rocky9.4",
      osarch: "x86_64",
    });
    // Installing: a Deployment taking it over would deploy it, so the image stays the node's.
    await h.admin.nodes.create("cn06", {
      groups: "compute",
      provmethod: "rocky9-compute",
      status: "installing",
    });
    // An image name xCAT has no osimage of (a provmethod of `install`, say): no Deployment can take it.
    await h.admin.nodes.create("cn07", { groups: "compute", provmethod: "gone-image", status: "booted" });
    for (const [node, image] of [
      ["cn06", "rocky9-compute"],
      ["cn07", "gone-image"],
    ] as const) {
      const read = await runtime.read(KIND, node, {});
      expect((read.inputs as { attributes: Record<string, string> }).attributes.provmethod).toBe(image);
    }
  });
});
