/**
 * `pulumi-xcat review` counts in nodes (issue #27 item 1) and shows takeovers (issue #22 item 1):
 * each summary kind on preview steps shaped as `pulumi preview --json` prints them, with the
 * management node's raw table rows (what review reads, `GET /tables/<tables>/rows`) as
 * ClusterFacts. Inheritance follows xcat-behavior.md §5.2 (Table.pm getNodeAttribs_nosub_returnany,
 * 2.18.2 ~2974-3100): a node's own row wins, else its groups in the order of `groups`.
 */
import { describe, expect, it } from "vitest";
import { ClusterFacts, tablesFor } from "../../src/cli/review/cluster-facts";
import { clusterReadsNeeded, summarizePlan } from "../../src/cli/review/plan-summary";
import { renderJson, renderMarkdown, renderText } from "../../src/cli/review/render-summary";

type Inputs = Record<string, unknown>;
function step(op: string, type: string, name: string, before?: Inputs, after?: Inputs, outputs?: Inputs) {
  const full = `pulumi-nodejs:dynamic/xcat:${type}`;
  return {
    op,
    urn: `urn:pulumi:dev::lab::${full}::${name}`,
    ...(before ? { oldState: { type: full, inputs: before, ...(outputs ? { outputs } : {}) } } : {}),
    ...(after ? { newState: { type: full, inputs: after } } : {}),
  };
}
const rack = (r: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${r}n${String(i + 1).padStart(2, "0")}`);
const all = (summary: ReturnType<typeof summarizePlan>) =>
  renderText(summary) + renderMarkdown(summary) + renderJson(summary);

/** rack02: 10 nodes in compute; rack03: 5 nodes inheriting xcatmaster, servicenode and rack, r03n05 setting its own rack. */
const facts = new ClusterFacts({
  nodelist: [
    ...rack("r02", 10).map((node) => ({ node, groups: "compute,rack02,all" })),
    ...rack("r03", 5).map((node) => ({ node, groups: "rack03,compute,all" })),
  ],
  noderes: [
    { node: "rack03", xcatmaster: "10.0.0.1", servicenode: "sn01" },
    { node: "compute", xcatmaster: "10.0.0.254" },
  ],
  nodepos: [
    { node: "rack03", rack: "03" },
    { node: "r03n05", rack: "03-own" },
  ],
  nodetype: [{ node: "compute", provmethod: "rocky9.3" }],
  hosts: [{ node: "rack02", ip: "|\\D+(\\d+)n(\\d+)|10.2.($1+0).($2+0)|" }],
  nodehm: [{ node: "compute", mgt: "ipmi" }],
  ipmi: [{ node: "r02n01", bmc: "10.12.0.1" }],
});

describe("ClusterFacts: a node's value as xCAT derives it", () => {
  it("takes the node's own value first, then its groups in order, expanding regex values", () => {
    expect(facts.value("r03n01", "xcatmaster")).toEqual({ value: "10.0.0.1", from: "rack03" });
    expect(facts.value("r02n01", "xcatmaster")).toEqual({ value: "10.0.0.254", from: "compute" });
    expect(facts.value("r03n05", "rack")).toEqual({ value: "03-own" });
    expect(facts.value("r02n07", "ip")).toEqual({ value: "10.2.2.7", from: "rack02" });
    // bmc is stored in ipmi only when mgt is ipmi (Schema.pm only_if), mgt inherited from compute.
    expect(facts.value("r02n01", "bmc")).toEqual({ value: "10.12.0.1" });
    expect(tablesFor(["bmc"])).toEqual(["ipmi", "nodehm", "nodelist", "openbmc"]);
  });
});

describe("review in nodes", () => {
  it("counts a 10-node Deployment given as a noderange or a group in nodes, with their noderange", () => {
    for (const nodes of ["r02n[01-10]", "rack02"]) {
      const summary = summarizePlan(
        { steps: [step("create", "Deployment", "rack02-image", undefined, { nodes, osimage: "rocky9.4" })] },
        facts,
      );
      expect(summary.dangers).toEqual([
        { kind: "reimage", text: "nodes deployed by a Deployment", count: 10, noderange: "r02n[01-10]" },
      ]);
      expect(renderText(summary)).toContain("    deploys rocky9.4: r02n[01-10] (10 nodes)");
    }
    expect(
      clusterReadsNeeded({ steps: [step("create", "Deployment", "d", undefined, { nodes: "rack02" })] }),
    ).toBeDefined();
    expect(
      clusterReadsNeeded({ steps: [step("create", "Deployment", "d", undefined, { nodes: ["n1"] })] }),
    ).toBeUndefined();
  });

  it("names the node a Deployment retries and the node a PowerState switches back on", () => {
    const nodes = rack("r02", 10);
    const nodeStates = Object.fromEntries(nodes.map((n) => [n, { deployed: n !== "r02n05" }]));
    const powerStates = Object.fromEntries(nodes.map((n) => [n, n === "r02n03" ? "off" : "on"]));
    const summary = summarizePlan({
      steps: [
        step(
          "update",
          "Deployment",
          "rack02-image",
          { nodes, osimage: "a" },
          { nodes, osimage: "a" },
          {
            nodeStates,
          },
        ),
        step(
          "update",
          "PowerState",
          "rack02-on",
          { nodes, power: "on" },
          { nodes, power: "on" },
          { powerStates },
        ),
      ],
    });
    const text = renderText(summary);
    expect(text).toContain("! 1 node deployed by a Deployment: r02n05");
    expect(text).toContain("! 1 node whose power state changes: r02n03");
    expect(text).toContain(
      "~ retry on rack02-image (1 Deployment)\n    deploys a again (not yet booted with it): r02n05 (1 node)",
    );
    expect(text).toContain(
      "~ repair on rack02-on (1 PowerState)\n    switches power on again (found off): r02n03 (1 node)",
    );
  });

  it("names the 5 nodes that lose values when their group is deleted, and counts the group as deleted", () => {
    const group = { name: "rack03", attributes: { xcatmaster: "10.0.0.1", servicenode: "sn01", rack: "03" } };
    const summary = summarizePlan({ steps: [step("delete", "Group", "rack03", group)] }, facts);
    expect(summary.dangers.map((d) => [d.kind, d.text, d.count, d.noderange])).toEqual([
      ["delete", "Group deleted", 1, "rack03"],
      ["group", "nodes whose values change through group rack03", 5, "r03n[01-05]"],
    ]);
    const text = renderText(summary);
    expect(text).toContain("    rack: 03 (from group rack03) → (none): r03n[01-04] (4 nodes)");
    expect(text).toContain("    servicenode: sn01 (from group rack03) → (none): r03n[01-05] (5 nodes)");
    // The next group in r03n*'s list (compute) supplies xcatmaster once rack03's is gone.
    expect(text).toContain(
      "    xcatmaster: 10.0.0.1 (from group rack03) → 10.0.0.254 (from group compute): r03n[01-05] (5 nodes)",
    );
    expect(renderMarkdown(summary)).toContain(
      "| ↳ nodes | servicenode: sn01 (from group rack03) → (none) | `r03n[01-05]` | 5 |",
    );
    expect(JSON.parse(renderJson(summary)).lines[0].effects).toHaveLength(3);
  });

  it("says a group change reaches no member when each sets the value itself", () => {
    const own = new ClusterFacts({
      nodelist: rack("r01", 4).map((node) => ({ node, groups: "compute,all" })),
      nodetype: [
        { node: "compute", provmethod: "a" },
        ...rack("r01", 4).map((node) => ({ node, provmethod: "a" })),
      ],
    });
    const summary = summarizePlan(
      {
        steps: [
          step(
            "update",
            "Group",
            "compute",
            { name: "compute", attributes: { provmethod: "a" } },
            {
              name: "compute",
              attributes: { provmethod: "b" },
            },
          ),
        ],
      },
      own,
    );
    expect(summary.dangers).toEqual([]);
    expect(renderText(summary)).toContain(
      "~ provmethod: a → b on compute (1 Group)\n    reaches none of its 4 members: each sets this attribute itself or from an earlier group",
    );
  });

  it("lists regex values that differ per member as one line per attribute", () => {
    const change = (ip: string) => ({ name: "rack02", attributes: { ip } });
    const summary = summarizePlan(
      {
        steps: [
          step(
            "update",
            "Group",
            "rack02",
            change("|\\D+(\\d+)n(\\d+)|10.2.($1+0).($2+0)|"),
            change("|\\D+(\\d+)n(\\d+)|10.3.($1+0).($2+0)|"),
          ),
        ],
      },
      facts,
    );
    expect(renderText(summary)).toContain(
      "    ip: 10 different changes (r02n01: 10.2.2.1 (from group rack02) → 10.3.2.1 (from group rack02), …): r02n[01-10] (10 nodes)",
    );
    expect(summary.dangers[0]).toMatchObject({ kind: "group", count: 10 });
  });

  it("shows the value a node has now, inherited included, when the program starts setting it", () => {
    const node = (attributes: Inputs) => ({
      name: "r02n01",
      groups: ["compute", "rack02", "all"],
      attributes,
    });
    const steps = [step("update", "Node", "r02n01", node({}), node({ provmethod: "rocky9.4" }))];
    expect(clusterReadsNeeded({ steps })?.attributes).toEqual(["provmethod"]);
    expect(renderText(summarizePlan({ steps }, facts))).toContain(
      "~ provmethod: rocky9.3 (from group compute) → rocky9.4 on r02n01 (1 node)",
    );
    const back = [step("update", "Node", "r02n01", node({ provmethod: "rocky9.4" }), node({}))];
    expect(renderText(summarizePlan({ steps: back }, facts))).toContain(
      "~ provmethod: rocky9.4 → rocky9.3 (from group compute) on r02n01 (1 node)",
    );
  });

  it("shows a new node's ip, mac and bmc, inherited ones included", () => {
    const steps = [
      step("create", "Node", "r02n11", undefined, {
        name: "r02n11",
        groups: ["compute", "rack02", "all"],
        attributes: { mac: "52:54:00:02:00:11", bmc: "10.12.0.11" },
      }),
    ];
    expect(clusterReadsNeeded({ steps })?.attributes).toEqual(["ip"]);
    const summary = summarizePlan({ steps }, facts);
    expect(renderText(summary)).toContain(
      "+ 1 node r02n11 in group compute\n    r02n11: ip 10.2.2.11 (from group rack02), mac 52:54:00:02:00:11, bmc 10.12.0.11",
    );
    expect(renderMarkdown(summary)).toContain(
      "+ xcat:Node r02n11: in group compute; ip 10.2.2.11 (from group rack02)",
    );
  });

  it("counts every deleted object by kind", () => {
    const summary = summarizePlan({
      steps: [
        step("delete", "Node", "vm01", { name: "vm01", groups: ["vms"] }),
        step("delete", "Osimage", "old", { name: "old" }),
        step("delete", "Osimage", "older", { name: "older" }),
      ],
    });
    expect(renderText(summary).split("\n").slice(0, 2)).toEqual([
      "! 1 node deleted: vm01",
      "! 2 Osimages deleted: old,older",
    ]);
  });
});

describe("review of takeovers", () => {
  const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
  const adopting = step("create", "Node", "legacy01", undefined, {
    name: "legacy01",
    adopt: true,
    groups: ["all"],
    attributes: { ip: "10.66.0.6", bmcpassword: { ...SIG, value: "hunter2" } },
    adoptChanges: { ip: "10.66.9.9 → 10.66.0.6", bmcpassword: "[secret] → [secret]" },
  });

  it("lists each adopted object with every attribute it changes, as its own kind", () => {
    const summary = summarizePlan({
      steps: [adopting, step("create", "Node", "n2", undefined, { name: "n2" })],
    });
    expect(summary.counts).toMatchObject({ create: 1, adopt: 1 });
    expect(summary.dangers).toEqual([
      { kind: "adopt", text: "existing object taken over", count: 1, noderange: "legacy01" },
    ]);
    const text = renderText(summary);
    expect(text).toContain(
      "~ takes over 1 node legacy01: bmcpassword: [secret] → [secret], ip: 10.66.9.9 → 10.66.0.6",
    );
    expect(text).toContain("1 to create, 1 to adopt, 0 to update");
    expect(renderMarkdown(summary)).toContain(
      "~ xcat:Node legacy01: takes over, bmcpassword: [secret] → [secret], ip: 10.66.9.9 → 10.66.0.6",
    );
    expect(all(summary)).not.toContain("hunter2");
  });
});

describe("review of a resource on another management node", () => {
  it("reads nothing for it and says its members were not read, rather than use the stack's", () => {
    const other = { url: "https://mn2/xcatws", username: "ops", password: "[secret]" };
    const inputs = (rack: string) => ({ name: "rack03", connection: other, attributes: { rack } });
    const steps = [step("update", "Group", "rack03", inputs("03"), inputs("3"))];
    expect(clusterReadsNeeded({ steps })).toBeUndefined();
    const text = renderText(summarizePlan({ steps }, facts));
    expect(text).toContain("    members and their values not read (the resource has its own connection)");
    expect(text).not.toContain("r03n01");
  });
});
