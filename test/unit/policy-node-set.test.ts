/**
 * The policy pack's rules on NodeSets (issue #38 item 4): each row of a set is a node of the stack
 * with the set's groups and common attributes, compared with Nodes and other sets' rows, and named
 * `NodeSet "rack1" row r01n04`. The resources are what the real engine planned for a NodeSet
 * program (test/unit/fixtures/nodeset-preview-change.json, see review-node-set.test.ts): for a
 * resource the update creates or changes, a stack policy sees its checked inputs, where the set's
 * csv is already `rows` (node-set.ts check); that preview sets Node cn07's ip to r01n04's.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PreviewStep } from "../../src/cli/review/plan-summary";
import { clusterView, type StackResource, UNKNOWN } from "../../src/policy/cluster-view";
import { nodesDefinedTwice } from "../../src/policy/node-defined-once";
import { nodeGroupTypos } from "../../src/policy/node-group-typo";
import { nodesOutsideNetworks } from "../../src/policy/node-in-network";
import { nodesInTwoDeployments } from "../../src/policy/one-owner-per-node";
import { duplicateAddresses } from "../../src/policy/unique-addresses";

const preview = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "nodeset-preview-change.json"), "utf8"),
) as { steps: PreviewStep[] };

/** The stack after the preview's changes, as a stack policy gets it (deleted resources gone). */
const planned: StackResource[] = preview.steps
  .filter((step) => step.op !== "delete" && step.newState?.type !== undefined && step.urn !== undefined)
  .map((step) => ({
    urn: step.urn ?? "",
    name: (step.urn ?? "").split("::").at(-1) ?? "",
    type: step.newState?.type ?? "",
    props: step.newState?.inputs ?? {},
  }));
const byName = (name: string) => planned.find((resource) => resource.name === name) as StackResource;
const nodeSet = (name: string, props: Record<string, unknown>): StackResource => ({
  urn: `urn:pulumi:test::nodeset-capture::pulumi-nodejs:dynamic/xcat:NodeSet::${name}`,
  name,
  type: "pulumi-nodejs:dynamic/xcat:NodeSet",
  props,
});
const resource = (kind: string, name: string, props: Record<string, unknown>): StackResource => ({
  urn: `urn:pulumi:test::nodeset-capture::pulumi-nodejs:dynamic/xcat:${kind}::${name}`,
  name,
  type: `pulumi-nodejs:dynamic/xcat:${kind}`,
  props,
});

describe("a NodeSet's rows as the stack's nodes", () => {
  it("are the set's nodes with its groups and common attributes under their own values", () => {
    const view = clusterView(planned);
    const r01n04 = view.nodes.find((node) => node.nodeName === "r01n04");
    expect(r01n04).toMatchObject({
      kind: "xcat:NodeSet",
      name: "rack1",
      groups: ["rack1", "compute", "all"],
      attributes: { mgt: "ipmi", arch: "x86_64", ip: "10.0.1.4", bmc: "127.0.10.34" },
    });
    // 20 + 20 + 4 set nodes and Node cn07.
    expect(view.nodes).toHaveLength(45);
  });

  it("read a csv given as text the way the provider does, and nothing while the rows are unknown", () => {
    const csv = nodeSet("inventory", {
      groups: ["compute"],
      attributes: { mgt: "ipmi" },
      csv: "node,ip,bmc\nx01,10.0.8.1,127.0.10.201\nx02,10.0.8.2,127.0.10.202\n",
    });
    const unknown = nodeSet("later", { groups: ["compute"], rows: UNKNOWN });
    const view = clusterView([csv, unknown]);
    expect(view.nodes.map((node) => [node.nodeName, node.attributes.ip, node.attributes.mgt])).toEqual([
      ["x01", "10.0.8.1", "ipmi"],
      ["x02", "10.0.8.2", "ipmi"],
    ]);
  });
});

describe("unique-node-ip, -mac and -bmc across NodeSet rows and Nodes", () => {
  it("refuse the duplicate ip between a NodeSet row and a Node, naming both", () => {
    expect(duplicateAddresses(clusterView(planned), "ip")).toEqual([
      {
        message:
          'ip 10.0.1.4 is given to both Node "cn07" (node cn07) and NodeSet "rack1" row r01n04; each node needs its own ip.',
        urn: byName("rack1").urn,
      },
    ]);
    expect(duplicateAddresses(clusterView(planned), "mac")).toEqual([]);
    expect(duplicateAddresses(clusterView(planned), "bmc")).toEqual([]);
  });

  it("refuse a mac and a bmc two sets' rows share, and a common value two rows inherit", () => {
    const rack5 = nodeSet("rack5", {
      groups: ["rack5", "all"],
      attributes: { bmc: "127.0.10.250" },
      rows: { r05n01: { mac: "52:54:00:00:03:02" }, r05n02: { ip: "10.0.5.2" } },
    });
    const view = clusterView([...planned, rack5]);
    expect(duplicateAddresses(view, "mac").map((v) => v.message)).toEqual([
      'mac 52:54:00:00:03:02 is given to both NodeSet "rack3" row r03n02 and NodeSet "rack5" row r05n01; each node needs its own mac.',
    ]);
    expect(duplicateAddresses(view, "bmc").map((v) => v.message)).toEqual([
      'bmc 127.0.10.250 is given to both NodeSet "rack5" row r05n01 and NodeSet "rack5" row r05n02; each node needs its own bmc.',
    ]);
  });
});

describe("one-definition-per-node", () => {
  it("passes the captured program, where every node has one owner", () => {
    expect(nodesDefinedTwice(clusterView(planned))).toEqual([]);
  });

  it("refuses a node a NodeSet and a Node both hold, and one two sets hold, naming both", () => {
    const node = resource("Node", "r01n03", { name: "r01n03", groups: ["compute"], attributes: {} });
    const overlap = nodeSet("spares", { groups: ["spares"], rows: { r02n20: {}, r09n01: {} } });
    expect(nodesDefinedTwice(clusterView([...planned, node, overlap])).map((v) => v.message)).toEqual([
      'node r01n03 is held by both NodeSet "rack1" row r01n03 and Node "r01n03" (node r01n03); a node belongs to one resource, or each update writes it with the other\'s values and deleting either deletes it.',
      'node r02n20 is held by both NodeSet "rack2" row r02n20 and NodeSet "spares" row r02n20; a node belongs to one resource, or each update writes it with the other\'s values and deleting either deletes it.',
    ]);
  });
});

describe("the node rules see set nodes too", () => {
  it("node-ip-in-network names a set's row outside every Network", () => {
    const net = resource("Network", "net1", { name: "net1", net: "10.0.0.0", mask: "255.255.0.0" });
    const far = nodeSet("far", { groups: ["far"], rows: { f01: { ip: "10.9.0.1" } } });
    expect(nodesOutsideNetworks(clusterView([...planned, net, far])).map((v) => v.message)).toEqual([
      'NodeSet "far" row f01 has ip 10.9.0.1, outside every Network of the stack (Network "net1" 10.0.0.0/255.255.0.0); fix the address or declare its network.',
    ]);
  });

  it("node-group-defined names a set's group that is a near-miss of a Group of the stack, per row", () => {
    const group = resource("Group", "rack1", { name: "rack1", attributes: {} });
    const typo = nodeSet("typo", { groups: ["rakc1"], rows: { t01: {} } });
    expect(nodeGroupTypos(clusterView([group, typo])).map((v) => v.message)).toEqual([
      "NodeSet \"typo\" row t01 names group 'rakc1', which no Group of the stack defines (did you mean 'rack1'?); the node gets none of 'rack1''s attributes.",
    ]);
  });

  it("one-deployment-per-node expands a group to the set nodes in it", () => {
    const byGroup = resource("Deployment", "rack2-again", { nodes: "rack2", osimage: "img" });
    const byRange = resource("Deployment", "rack2-range", { nodes: "r02n[01-20]", osimage: "img" });
    expect(nodesInTwoDeployments(clusterView([...planned, byRange, byGroup])).map((v) => v.message)).toEqual([
      'Deployment "rack2-range" and Deployment "rack2-again" both cover r02n[01-20]; a node belongs to one Deployment, or each update reinstalls it with whichever image runs last.',
    ]);
  });
});
