/**
 * A Deployment's preview on a real xCAT management node: the one read of its nodes' netboot, mac
 * and ip (src/provider/resources/deployment.ts, xcatNodeProblems) answers both checks as the
 * emulator's does. A node with neither netboot nor a MAC is named as one nodeset would refuse; two
 * nodes without an ip are named as ones whose names will not resolve, when the site runs makedhcp
 * in nodeset (site.dhcpsetup not n; otherwise they pass, xnba.pm master:860); a node with all three
 * passes; nothing is written. Skipped unless XCAT_E2E_URL names a management node
 * (docs/real-xcat-e2e.md). The nodes are only defined and read: nothing powers or boots them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { XcatClient } from "../../src/client";
import { nodesetRunsMakedhcp } from "../../src/provider/name-services";
import * as runtime from "../../src/provider/runtime";
import { configureForRealXcat, realXcatAdmin, realXcatPrefix, realXcatUrl } from "./real-xcat-support";

describe.skipIf(!realXcatUrl)("a Deployment's preview on a real management node", () => {
  const p = realXcatPrefix();
  const image = `${p}-rhels9-compute`;
  const nodes = [`${p}bare01`, `${p}ns01`, `${p}ns02`, `${p}ok01`];
  let admin: XcatClient;

  beforeAll(async () => {
    admin = realXcatAdmin();
    await admin.osimages.create(image, {
      imagetype: "linux",
      provmethod: "netboot",
      osvers: "rhels9.4",
      osarch: "x86_64",
      profile: "compute",
    });
    await admin.nodes.create(`${p}bare01`, { groups: "all", ip: "127.0.10.61" });
    for (const [name, mac] of [
      [`${p}ns01`, "52:54:00:61:00:01"],
      [`${p}ns02`, "52:54:00:61:00:02"],
    ] as const)
      await admin.nodes.create(name, { groups: "all", netboot: "xnba", mac });
    await admin.nodes.create(`${p}ok01`, {
      groups: "all",
      netboot: "xnba",
      mac: "52:54:00:61:00:03",
      ip: "127.0.10.62",
    });
  }, 600_000);

  afterAll(async () => {
    await admin?.nodes.delete(nodes.join(",")).catch(() => undefined);
    await admin?.osimages.delete(image).catch(() => undefined);
    await admin?.close();
  }, 600_000);

  it("names the node nodeset would refuse and the nodes whose names will not resolve, from one read; writes nothing", async () => {
    await configureForRealXcat();
    const site = await admin.globalconf.getAttrs(["dhcpsetup"]);
    const checked = await runtime.check(
      "xcat:Deployment",
      {},
      { nodes: `${p}ns[01-02],${p}bare01,${p}ok01`, osimage: image },
    );
    const expected = [
      {
        property: "nodes",
        reason: expect.stringMatching(
          new RegExp(
            `^xcat:Deployment: nodes: nodeset would refuse 1 node\\(s\\): ${p}bare01 \\(no netboot, no mac\\)\\.`,
          ),
        ),
      },
    ];
    if (nodesetRunsMakedhcp({ dhcpsetup: site.dhcpsetup })) {
      expected.push({
        property: "nodes",
        reason: expect.stringMatching(new RegExp(`^xcat:Deployment: nodes: ${p}ns01, ${p}ns02 have no ip, `)),
      });
    }
    expect(checked.failures).toEqual(expected);
    const after = await admin.nodes.getMany(nodes, { attrs: ["provmethod", "currstate"] });
    // (A real xCAT answers an attribute asked for by name with "" where the node has none.)
    for (const node of nodes) {
      expect(after.get(node)?.provmethod ?? "", node).toBe("");
      expect(after.get(node)?.currstate ?? "", node).toBe("");
    }
  }, 600_000);
});
