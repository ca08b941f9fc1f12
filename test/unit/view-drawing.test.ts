/**
 * The view's picture from raw table rows and a stack's state (src/cli/view/stack-nodes.ts,
 * view-model.ts, render-svg.ts): under code or not, drift, inheritance, secrets, and what the SVG
 * says in words.
 */
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import { renderSvg } from "../../src/cli/view/render-svg";
import { stackNodes } from "../../src/cli/view/stack-nodes";
import { buildViewModel, changedSinceRecorded } from "../../src/cli/view/view-model";

const rows = {
  nodelist: [
    { node: "r01n01", groups: "compute,all", status: "booted" },
    { node: "r01n02", groups: "compute,all", status: "failed" },
    { node: "r01n03", groups: "compute,all", status: "netbooting" },
    { node: "stray", groups: "all", status: "booted" },
    { node: "odd", groups: "all", status: "" },
  ],
  nodetype: [
    // The group's image reaches every member; nodeset writes the node's own row (destiny.pm:294-319).
    { node: "compute", provmethod: "rocky9-compute" },
    { node: "r01n01", provmethod: "rocky9-compute" },
    { node: "r01n02", provmethod: "rocky8-compute" },
    { node: "stray", provmethod: "rocky8-compute" },
  ],
  nodepos: [{ node: "odd", rack: "left", u: "3" }],
  ipmi: [{ node: "compute", bmc: "|r(\\d+)n(\\d+)|127.0.10.($2+0)|", password: "hunter2" }],
  hosts: [],
  nodehm: [{ node: "compute", mgt: "ipmi" }],
  noderes: [],
  mac: [
    { node: "r01n01", mac: "02:00:00:00:00:99" },
    { node: "r01n02", mac: "02:00:00:00:00:01" },
    { node: "r01n03", mac: "02:00:00:00:00:01" },
  ],
  vpd: [],
};

const urn = (type: string, name: string) => `urn:pulumi:dev::lab::${type}::${name}`;
const state = {
  deployment: {
    resources: [
      { urn: urn("pulumi:pulumi:Stack", "lab-dev"), type: "pulumi:pulumi:Stack" },
      ...["r01n01", "r01n02", "r01n03"].map((node) => ({
        urn: urn("pulumi-nodejs:dynamic/xcat:Node", node),
        type: "pulumi-nodejs:dynamic/xcat:Node",
        id: node,
        inputs: { name: node, groups: ["compute", "all"], attributes: { mac: "02:00:00:00:00:01" } },
        // What the last up recorded; r01n01's mac has been changed by hand since (the rows hold another).
        outputs: { name: node, groups: ["compute", "all"], attributes: { mac: "02:00:00:00:00:01" } },
      })),
      {
        urn: urn("pulumi-nodejs:dynamic/xcat:Deployment", "compute"),
        type: "pulumi-nodejs:dynamic/xcat:Deployment",
        id: "compute",
        inputs: { nodes: "compute", osimage: "rocky9-compute" },
        outputs: {},
      },
      {
        urn: urn("pulumi-nodejs:dynamic/xcat:Node", "elsewhere"),
        type: "pulumi-nodejs:dynamic/xcat:Node",
        id: "other",
        inputs: { connection: { url: "https://mn-b/xcatws" } },
      },
    ],
  },
};

function model() {
  const facts = new ClusterFacts(rows);
  const nodes = stackNodes(state, {
    isNode: (name) => facts.isNode(name),
    groupMembers: (group) => {
      const members = facts.membersOf(group);
      return members.length > 0 ? members : undefined;
    },
  });
  return buildViewModel({
    stack: "dev",
    managementNode: "the stack's management node (http://127.0.0.1:1/xcatws)",
    nodes: ["r01n01", "r01n02", "r01n03", "stray", "odd"],
    facts,
    power: new Map([
      ["r01n01", "on"],
      ["r01n02", "on"],
      ["r01n03", "on"],
      ["stray", "on"],
    ]),
    stackNodes: nodes,
  });
}

describe("view drawing", () => {
  it("reads drift as recorded values the management node no longer holds, never secrets or regex patterns", () => {
    const facts = new ClusterFacts(rows);
    expect(
      changedSinceRecorded(facts, "r01n01", { mac: "02:00:00:00:00:01", groups: "compute,all" }),
    ).toEqual(["mac"]);
    expect(
      changedSinceRecorded(facts, "r01n02", { mac: "02:00:00:00:00:01", groups: "compute,all" }),
    ).toEqual([]);
    expect(changedSinceRecorded(facts, "r01n02", { bmcpassword: "x", ip: "|\\D+|x|" })).toEqual([]);
  });

  it("finds the holding resources, the Deployment's image through its group, and drift from outputs vs inputs", () => {
    const m = model();
    expect(m.nodes.get("r01n01")).toMatchObject({ state: "booted", underCode: true, drift: ["mac"] });
    expect(m.nodes.get("r01n02")).toMatchObject({ state: "failed", label: "failed" });
    expect(m.nodes.get("r01n03")).toMatchObject({ state: "deploying", label: "netbooting" });
    expect(m.nodes.get("stray")).toMatchObject({
      state: "booted",
      underCode: false,
      owner: "not under code",
    });
    expect(m.counts).toMatchObject({ booted: 2, failed: 1, deploying: 1, unknown: 1 });
    expect(m.notUnderCode).toBe(2);
    expect(m.notes.join(" ")).toMatch(/1 resources of the stack are on other management nodes/);
    expect(m.notes.join(" ")).toMatch(/^Power is not known|this view draws/);
    expect(m.notes).not.toContainEqual(expect.stringMatching(/^Held by the stack/));
  });

  it("names the nodes the stack holds that the management node lacks", () => {
    const facts = new ClusterFacts(rows);
    const nodes = stackNodes(state, { isNode: (name) => facts.isNode(name), groupMembers: () => undefined });
    const m = buildViewModel({
      stack: "dev",
      managementNode: "the stack's management node",
      nodes: ["r01n01", "r01n03", "stray", "odd"],
      facts,
      power: new Map(),
      stackNodes: nodes,
    });
    expect(m.notes).toContain(
      "Held by the stack but not on the management node (deleted by hand, or not created yet): r01n02.",
    );
  });

  it("shows inherited values with their group and secrets as [secret]", () => {
    const attributes = model().nodes.get("r01n01")?.attributes ?? [];
    expect(attributes).toContainEqual({ name: "provmethod", value: "rocky9-compute" });
    expect(model().nodes.get("r01n03")?.attributes).toContainEqual({
      name: "provmethod",
      value: "rocky9-compute",
      from: "compute",
    });
    expect(attributes).toContainEqual({ name: "bmc", value: "127.0.10.1", from: "compute" });
    expect(attributes).toContainEqual({ name: "bmcpassword", value: "[secret]", from: "compute" });
    expect(attributes).toContainEqual({ name: "status", value: "booted" });
    expect(JSON.stringify(attributes)).not.toContain("hunter2");
  });

  it("draws every node with its words and marks, lists the unplaced one with its sentence, and never the secret", () => {
    const svg = renderSvg(model());
    expect(svg.startsWith("<svg ")).toBe(true);
    expect(svg).toContain("rack 1 (3)");
    expect(svg).toContain("U01 r01n01 booted rocky9-compute · drift");
    expect(svg).toContain("U02 r01n02 failed");
    expect(svg).toContain("U03 r01n03 netbooting");
    expect(svg).toContain("group all (1)");
    expect(svg).toContain("stray booted rocky8-compute · not under code");
    expect(svg).toMatch(/odd \(no status, not under code\): its rack is &#39;left&#39;/);
    expect(svg).toContain('stroke-dasharray="5 3"');
    for (const word of [
      "failed: xCAT status failed",
      "deploying: ",
      "waiting: ",
      "booted: ",
      "not under code",
    ]) {
      expect(svg).toContain(word);
    }
    expect(svg).not.toContain("hunter2");
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg|127\.0\.0\.1)/);
  });
});

describe("view stack nodes during an up", () => {
  it("takes a Deployment under way from the checkpoint's pending operations, listing it once", () => {
    const facts = new ClusterFacts(rows);
    const deployment = (osimage: string) => ({
      urn: urn("pulumi-nodejs:dynamic/xcat:Deployment", "compute"),
      type: "pulumi-nodejs:dynamic/xcat:Deployment",
      id: "compute",
      inputs: { nodes: "r01n[01-03]", osimage },
    });
    const rolling = {
      deployment: {
        resources: [deployment("rocky8-compute")],
        pending_operations: [
          { type: "updating", resource: deployment("rocky9-compute") },
          { type: "deleting", resource: deployment("ignored") },
        ],
      },
    };
    const found = stackNodes(rolling, {
      isNode: (name) => facts.isNode(name),
      groupMembers: () => undefined,
    });
    expect(found.wantedImages.get("r01n02")).toEqual({ osimage: "rocky9-compute", deployment: "compute" });
    expect(found.resources.get("r01n02")).toEqual([{ kind: "xcat:Deployment", name: "compute" }]);
  });
});
