/**
 * `pulumi-xcat view` of a stack with NodeSets (issue #38 item 4): the nodes a set's rows hold show
 * as managed by it, and what it recorded for each node (groups, common attributes, row) is what a
 * hand edit is compared with. The state is `pulumi stack export` of a NodeSet program after its
 * first `up` on the emulator (test/unit/fixtures/nodeset-stack-export.json, Pulumi 3.259,
 * `__provider` and the secrets provider removed): NodeSets rack1 and rack2 from CSV (20 nodes
 * each, no `nodes` input), rack4 from rows, and Node cn07.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import { stackNodes } from "../../src/cli/view/stack-nodes";
import { buildViewModel } from "../../src/cli/view/view-model";

const exported: unknown = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/nodeset-stack-export.json"), "utf8"),
);
const noContext = { isNode: () => false, groupMembers: () => undefined };
const pad = (n: number) => String(n).padStart(2, "0");

describe("the view of a stack's NodeSets", () => {
  const nodes = stackNodes(exported, noContext);

  it("reads each set's nodes from its rows in the state, csv or rows", () => {
    expect(nodes.resources.get("r01n03")).toEqual([{ kind: "xcat:NodeSet", name: "rack1" }]);
    expect(nodes.resources.get("r02n20")).toEqual([{ kind: "xcat:NodeSet", name: "rack2" }]);
    expect(nodes.resources.get("r04n02")).toEqual([{ kind: "xcat:NodeSet", name: "rack4" }]);
    expect(nodes.resources.get("cn07")).toEqual([{ kind: "xcat:Node", name: "cn07" }]);
    expect(nodes.resources.size).toBe(43);
    expect(nodes.recorded.get("r01n03")).toEqual({
      groups: "rack1,compute,all",
      mgt: "ipmi",
      arch: "x86_64",
      provmethod: "rocky9.4-x86_64-netboot-compute",
      ip: "10.0.1.3",
      mac: "52:54:00:00:01:03",
      bmc: "127.0.10.33",
    });
  });

  it("draws a set's nodes as under code, managed by the set, a hand edit as drift, a deleted node as said", () => {
    // The management node: rack1 as the set wrote it but r01n03's ip changed by hand and r01n20 deleted.
    const rack1 = Array.from({ length: 19 }, (_, i) => `r01n${pad(i + 1)}`);
    const groups = "rack1,compute,all";
    const facts = new ClusterFacts({
      nodelist: [...rack1.map((node) => ({ node, groups })), { node: "stray01", groups: "all" }],
      nodehm: rack1.map((node) => ({ node, mgt: "ipmi" })),
      hosts: rack1.map((node) => ({
        node,
        ip: node === "r01n03" ? "10.9.9.9" : `10.0.1.${Number(node.slice(4))}`,
      })),
    });
    const model = buildViewModel({
      stack: "test",
      managementNode: "the stack's management node",
      nodes: [...rack1, "stray01"],
      facts,
      power: new Map(),
      stackNodes: nodes,
    });
    expect(model.nodes.get("r01n01")).toMatchObject({ underCode: true, owner: "xcat:NodeSet rack1" });
    expect(model.nodes.get("r01n03")?.drift).toContain("ip");
    expect(model.nodes.get("r01n01")?.drift).not.toContain("ip");
    expect(model.nodes.get("stray01")).toMatchObject({ underCode: false, owner: "not under code" });
    expect(model.notUnderCode).toBe(1);
    expect(model.notes.join("\n")).toMatch(/Held by the stack but not on the management node .*r01n20/);
  });
});
