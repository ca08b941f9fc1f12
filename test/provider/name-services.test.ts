/**
 * Name services follow the program (issue #29 item 2): 5 new nodes with ip and mac get their
 * /etc/hosts, DNS and DHCP entries on the emulated management node, merged into one request per
 * command; deleting 2 removes their DNS and DHCP entries before the nodes go; with DHCP off for
 * the stack no makedhcp is sent. Why the order matters: makedhcp resolves the node's name on the
 * management node (dhcp.pm master:782), and nodeset runs makedhcp itself (xnba.pm master:857-872).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type ProviderHarness, providerHarness, runtime } from "./support";

const KIND = "xcat:Node";
const NODES = ["ns01", "ns02", "ns03", "ns04", "ns05"];

function nodeInputs(name: string, index: number): Record<string, unknown> {
  return {
    name,
    groups: ["all"],
    attributes: { ip: `10.0.7.${index + 1}`, mac: `52:54:00:07:00:0${index + 1}`, mgt: "ipmi" },
  };
}

const names = (h: ProviderHarness, table: string, key: string) =>
  h.emulator.state
    .getRows(table)
    .map((row) => row[key])
    .filter((name): name is string => typeof name === "string" && name.startsWith("ns"))
    .sort();

let h: ProviderHarness;
afterEach(async () => {
  await h?.close();
});

describe("name services of created and deleted nodes", () => {
  it("gives exactly the 5 new nodes hosts, DNS and DHCP entries, and removes 2 of them before their delete", async () => {
    h = await providerHarness();
    const created = await Promise.all(
      NODES.map((name, index) => h.createChecked(KIND, nodeInputs(name, index))),
    );
    expect(names(h, "_emu_etchosts", "name")).toEqual(NODES);
    expect(names(h, "_emu_dns", "name")).toEqual(NODES);
    expect(names(h, "_emu_dhcp", "node")).toEqual(NODES);
    // Each node's DHCP reservation holds the address its name resolves to.
    expect(h.emulator.state.getRows("_emu_dhcp").find((row) => row.node === "ns03")?.ip).toBe("10.0.7.3");
    const byRoute = h.emulator.stats().byRoute;
    expect(byRoute["POST /nodes/{noderange}/host"]).toBeLessThan(NODES.length);
    expect(byRoute["POST /nodes/{noderange}/dhcp"]).toBeLessThan(NODES.length);

    await Promise.all(created.slice(0, 2).map(({ id, outs }) => runtime.delete(KIND, id, outs)));
    expect(h.emulator.state.listObjects("node").filter((n) => n.startsWith("ns"))).toEqual(NODES.slice(2));
    expect(names(h, "_emu_dns", "name")).toEqual(NODES.slice(2));
    expect(names(h, "_emu_dhcp", "node")).toEqual(NODES.slice(2));
  });

  it("sends no makedhcp when the stack turns DHCP off, and none for a node that turns it off", async () => {
    h = await providerHarness({}, { "xcat:nameServices": "hosts,dns" });
    await h.createChecked(KIND, nodeInputs("ns01", 0));
    expect(h.emulator.stats().byRoute["POST /nodes/{noderange}/dhcp"]).toBeUndefined();
    expect(names(h, "_emu_etchosts", "name")).toEqual(["ns01"]);
    await h.close();

    h = await providerHarness();
    await h.createChecked(KIND, { ...nodeInputs("ns02", 1), nameServices: { dhcp: false } });
    expect(h.emulator.stats().byRoute["POST /nodes/{noderange}/dhcp"]).toBeUndefined();
    expect(names(h, "_emu_dns", "name")).toEqual(["ns02"]);
  });

  it("runs them again when the ip changes, and not when another attribute does", async () => {
    h = await providerHarness();
    const { outs } = await h.createChecked(KIND, nodeInputs("ns01", 0));
    const hostsRequests = () => h.emulator.stats().byRoute["POST /nodes/{noderange}/host"] ?? 0;
    const before = hostsRequests();
    const arch = {
      ...nodeInputs("ns01", 0),
      attributes: { ...(nodeInputs("ns01", 0).attributes as object), arch: "x86_64" },
    };
    const archChecked = await runtime.check(KIND, outs, arch);
    const afterArch = await runtime.update(KIND, "ns01", outs, archChecked.inputs);
    expect(hostsRequests()).toBe(before);
    const moved = { ...arch, attributes: { ...(arch.attributes as object), ip: "10.0.7.99" } };
    const movedChecked = await runtime.check(KIND, afterArch.outs, moved);
    await runtime.update(KIND, "ns01", afterArch.outs, movedChecked.inputs);
    expect(hostsRequests()).toBe(before + 1);
    expect(h.emulator.state.getRows("_emu_dhcp").find((row) => row.node === "ns01")?.ip).toBe("10.0.7.99");
  });

  it("refuses a nameServices input that is not an object of booleans, naming the field", async () => {
    h = await providerHarness();
    const checked = await h.check(KIND, { ...nodeInputs("ns01", 0), nameServices: { dchp: false } });
    expect(checked.failures).toEqual([
      { property: "nameServices", reason: expect.stringContaining("nameServices.dchp: not a name service") },
    ]);
  });
  it("says at check which commands up sends for a new node, and for an ip change", async () => {
    h = await providerHarness();
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => lines.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      const created = await runtime.check(KIND, {}, nodeInputs("ns01", 0));
      const moved = { ...nodeInputs("ns01", 0), attributes: { ip: "10.0.7.99", mac: "52:54:00:07:00:01" } };
      await runtime.check(KIND, created.inputs, moved);
      await runtime.check(KIND, created.inputs, nodeInputs("ns01", 0));
    } finally {
      process.stderr.write = write;
    }
    // The emulated management node serves DNS (site.nameservers is its address) and DHCP.
    expect(lines.filter((line) => line.includes("name services"))).toEqual([
      "xcat:Node ns01: up sends name services: makehosts, makedns, makedhcp\n",
      "xcat:Node ns01: up sends name services: makehosts, makedns, makedhcp\n",
    ]);
    expect(h.emulator.stats().byRoute["POST /nodes/{noderange}/host"]).toBeUndefined();
  });
});

describe("a Deployment's preview and names that will not resolve", () => {
  async function withImage(config: Record<string, string> = {}) {
    h = await providerHarness({}, config);
    await h.admin.osimages.create("rhels9-compute", {
      imagetype: "linux",
      provmethod: "netboot",
      osvers: "rhels9.4",
      osarch: "x86_64",
      profile: "compute",
    });
    // Defined by hand without an ip: makedhcp would find no address for their names (dhcp.pm master:782).
    await h.admin.nodes.create("ns[01-02]", {
      groups: "all",
      mgt: "ipmi",
      netboot: "xnba",
      mac: "52:54:00:07:00:01",
    });
  }

  it("refuses nodes with no ip anywhere, naming them and the fix, before any write", async () => {
    await withImage();
    const checked = await h.check("xcat:Deployment", { nodes: ["ns01", "ns02"], osimage: "rhels9-compute" });
    expect(checked.failures).toEqual([
      {
        property: "nodes",
        reason: expect.stringMatching(/^xcat:Deployment: nodes: ns01, ns02 have no ip, .*attributes\.ip/),
      },
    ]);
    const writes = Object.keys(h.emulator.stats().byRoute).filter((route) => /^(PUT|DELETE) /.test(route));
    expect(writes).toEqual([]);
  });

  it("reads a noderange's nodes once for both checks: netboot, mac and ip in one request, no nodels", async () => {
    await withImage();
    await h.admin.nodes.create("bare01", { groups: "all", ip: "10.0.7.9" });
    const before = { ...h.emulator.stats().byRoute };
    const delta = (route: string) => (h.emulator.stats().byRoute[route] ?? 0) - (before[route] ?? 0);
    const checked = await h.check("xcat:Deployment", {
      nodes: "ns[01-02],bare01",
      osimage: "rhels9-compute",
    });
    // Both checks answer from the one read: bare01 has no netboot and no mac, ns01-02 no ip.
    expect(checked.failures).toEqual([
      {
        property: "nodes",
        reason: expect.stringMatching(
          /^xcat:Deployment: nodes: nodeset would refuse 1 node\(s\): bare01 \(no netboot, no mac\)\./,
        ),
      },
      {
        property: "nodes",
        reason: expect.stringMatching(/^xcat:Deployment: nodes: ns01, ns02 have no ip, /),
      },
    ]);
    expect(delta("GET /nodes/{noderange}/attrs/{attrs}")).toBe(1);
    expect(delta("GET /nodes/{noderange}")).toBe(0);
  });

  it("refuses new nodes whose address a group's regex gives (up runs no makehosts for it), naming node, address, group and makehosts", async () => {
    await withImage();
    // As the rack: the address on the group as a regex (what an import writes), the nodes
    // new in this run. makehosts would write them (hosts.pm expands group regexes), but up runs it
    // only for an ip a node declares itself (name-services.ts), so at nodeset nothing resolves.
    await h.check("xcat:Group", { name: "rack07", attributes: { ip: "|ns(\\d+)|10.0.7.($1+0)|" } });
    for (const node of ["ns03", "ns04"])
      await h.check(KIND, { name: node, groups: ["rack07", "all"], attributes: { netboot: "xnba" } });
    const before = { ...h.emulator.stats().byRoute };
    const checked = await h.check("xcat:Deployment", { nodes: ["ns03", "ns04"], osimage: "rhels9-compute" });
    expect(checked.failures).toEqual([{ property: "nodes", reason: expect.any(String) }]);
    const reason = checked.failures?.[0]?.reason ?? "";
    expect(reason).toContain(
      "xcat:Deployment: nodes: ns03 (10.0.7.3 from xcat:Group rack07's |ns(\\d+)|10.0.7.($1+0)|), " +
        "ns04 (10.0.7.4 from xcat:Group rack07's |ns(\\d+)|10.0.7.($1+0)|): their addresses come from a group",
    );
    expect(reason).toContain("makehosts ns03,ns04 on the management node");
    expect(reason).toContain("its own attributes.ip");
    expect(reason).toMatch(/Nothing was changed\.$/);
    const writes = Object.entries(h.emulator.stats().byRoute).filter(
      ([route, count]) => /^(PUT|POST|DELETE) /.test(route) && count !== before[route],
    );
    expect(writes).toEqual([]);
  });

  it("accepts existing nodes whose group gives the address they already have, and refuses one whose address the group changes", async () => {
    await withImage();
    await h.admin.nodes.update("ns[01-02]", { groups: "rack07,all" });
    await h.admin.groups.update("rack07", { ip: "|ns(\\d+)|10.0.7.($1+0)|" });
    // ns01 keeps the address an earlier makehosts could have written; ns02's changes in this run.
    await h.check("xcat:Group", { name: "rack07", attributes: { ip: "|ns(\\d+)|10.0.7.($1+0)|" } });
    await h.check("xcat:Group", { name: "rack08", attributes: { ip: "10.0.8.2" } });
    await h.check(KIND, { name: "ns01", groups: ["rack07", "all"] });
    await h.check(KIND, { name: "ns02", groups: ["rack08", "rack07", "all"] });
    const checked = await h.check("xcat:Deployment", { nodes: ["ns01", "ns02"], osimage: "rhels9-compute" });
    expect(checked.failures).toEqual([
      {
        property: "nodes",
        reason: expect.stringMatching(
          /^xcat:Deployment: nodes: ns02 \(10\.0\.8\.2 from xcat:Group rack08\): its address comes from a group/,
        ),
      },
    ]);
  });

  it("accepts a node the program gives an ip, one xCAT has an ip for, and any where the site resolves names", async () => {
    await withImage();
    await h.check(KIND, { name: "ns01", groups: ["all"], attributes: { ip: "10.0.7.1" } });
    await h.admin.nodes.update("ns02", { ip: "10.0.7.2" });
    const checked = await h.check("xcat:Deployment", { nodes: ["ns01", "ns02"], osimage: "rhels9-compute" });
    expect(checked.failures).toBeUndefined();
    await h.close();

    await withImage({ "xcat:nameServices": "dhcp" });
    const elsewhere = await h.check("xcat:Deployment", { nodes: "ns[01-02]", osimage: "rhels9-compute" });
    expect(elsewhere.failures).toBeUndefined();
  });
});
