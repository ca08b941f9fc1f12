/**
 * `pulumi-xcat review` of NodeSets (issue #38 item 4): a set's change is counted and named in
 * nodes, never "1 NodeSet". The fixtures are what the real engine printed (pulumi v3.259.0,
 * `pulumi preview --json`, `__provider` inputs removed) for a TypeScript program on the emulator:
 *
 * - nodeset-preview-create.json: the first preview of NodeSets rack1 and rack2 (20 nodes each,
 *   from CSV node,ip,mac,bmc), rack4 (2 nodes from rows, ip only), Node cn07 and an Osimage;
 * - nodeset-preview-change.json: after `up`, rack2's image rolled (provmethod rocky9.4 → 9.5),
 *   rack1's r01n03 ip edited in the CSV, r01n21 added and r01n05 removed, rack4 removed from the
 *   program, a new NodeSet rack3 (4 nodes) with a PowerState on `rack3.noderange`, a new
 *   Deployment on `rack2.noderange`, and cn07's ip set to r01n04's (10.0.1.4).
 *
 * Both noderanges are Pulumi's unknown in that preview (rack3 is being created, rack2 changed):
 * the steps carry `propertyDependencies.nodes`, the set's URN, which is how review finds them.
 * The cases the capture does not hold (adopt, a hand edit under `preview --refresh`, unprotect,
 * a move to another server) are that JSON with the one field the engine would give changed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import { clusterReadsNeeded, type PreviewStep, summarizePlan } from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";
import { planMarks } from "../../src/cli/view/plan-picture";

interface Preview {
  steps: PreviewStep[];
  [key: string]: unknown;
}
const fixture = (name: string): Preview =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", name), "utf8")) as Preview;
/** The preview with one step replaced, as the engine would give it in the case named. */
const withStep = (preview: Preview, name: string, change: (step: PreviewStep) => PreviewStep[]): Preview => ({
  ...preview,
  steps: preview.steps.flatMap((step) => (step.urn?.endsWith(`::${name}`) ? change(step) : [step])),
});

describe("review of a NodeSet program's first preview", () => {
  const plan = fixture("nodeset-preview-create.json");

  it("lists each set's nodes by noderange with their addresses, never '1 NodeSet'", () => {
    const text = renderText(summarizePlan(plan));
    expect(text).not.toMatch(/NodeSet rack\d$/m);
    expect(text).not.toMatch(/\d NodeSets?\b/);
    const lines = text.split("\n");
    expect(lines).toContain("+ 20 nodes r01n[01-20] (NodeSet rack1) in group rack1");
    expect(lines).toContain("+ 20 nodes r02n[01-20] (NodeSet rack2) in group rack2");
    expect(lines).toContain("    r01n07: ip 10.0.1.7, mac 52:54:00:00:01:07, bmc 127.0.10.37");
    // rack4's rows give ip only: mac and bmc are what the nodes inherit, read from the management node.
    expect(lines).toContain(
      "    r04n01: ip 10.0.4.1, mac not read (review --offline), bmc not read (review --offline)",
    );
    // Resources are counted as the engine counts them (5 creates), the nodes in the lines.
    expect(lines.at(-2)).toBe("5 to create, 0 to adopt, 0 to update, 0 to replace, 0 to delete, 0 unchanged");
    // The set's nodes get their hosts, DNS and DHCP entries as Nodes do.
    expect(lines).toContain("= hosts, DNS, DHCP entries: cn07,r04n[01-02],r[01-02]n[01-20] added");
  });

  it("reads the addresses new set nodes inherit, as for a new Node", () => {
    const reads = clusterReadsNeeded(plan);
    expect(reads?.attributes).toEqual(["bmc", "mac"]);
    expect(reads?.reasons).toContain("the addresses new nodes inherit");
  });

  it("shows the inherited address of a set node once read", () => {
    const facts = new ClusterFacts({
      nodelist: [],
      ipmi: [{ node: "rack4", bmc: "|r04n(\\d+)|127.0.10.(140+$1)|" }],
      mac: [],
    });
    const text = renderText(summarizePlan(plan, facts));
    expect(text).toContain("    r04n02: ip 10.0.4.2, mac (none), bmc 127.0.10.142 (from group rack4)");
  });
});

describe("review of a NodeSet program's change (roll, cell edit, rows added and removed)", () => {
  const plan = fixture("nodeset-preview-change.json");

  it("says every change in nodes, with the set's name", () => {
    const lines = renderText(summarizePlan(plan)).trimEnd().split("\n");
    expect(lines).toEqual([
      "! 3 nodes deleted: r01n05,r04n[01-02]",
      "! 20 nodes deployed by a Deployment: r02n[01-20]",
      "! 4 nodes whose power state changes: r03n[01-04]",
      "- 2 nodes r04n[01-02] (NodeSet rack4) in group rack4",
      "- 1 node r01n05 (NodeSet rack1) in group rack1",
      "~ 20 nodes r02n[01-20] (NodeSet rack2): provmethod: rocky9.4-x86_64-netboot-compute → rocky9.5-x86_64-netboot-compute",
      "~ ip: 10.0.9.7 → 10.0.1.4 on cn07 (1 node)",
      "~ 1 node r01n03 (NodeSet rack1): ip: 10.0.1.3 → 10.0.1.103",
      "+ 4 nodes r03n[01-04] (NodeSet rack3) in group rack3",
      "    r03n01: ip 10.0.3.1, mac 52:54:00:00:03:01, bmc 127.0.10.91",
      "    r03n02: ip 10.0.3.2, mac 52:54:00:00:03:02, bmc 127.0.10.92",
      "    r03n03: ip 10.0.3.3, mac 52:54:00:00:03:03, bmc 127.0.10.93",
      "    r03n04: ip 10.0.3.4, mac 52:54:00:00:03:04, bmc 127.0.10.94",
      "+ 1 Deployment rack2-image",
      "    deploys rocky9.5-x86_64-netboot-compute onto the nodes of NodeSet rack2 (20): r02n[01-20] (20 nodes)",
      "+ 1 node r01n21 (NodeSet rack1) in group rack1",
      "    r01n21: ip 10.0.1.21, mac 52:54:00:00:01:21, bmc 127.0.10.51",
      "+ 1 Osimage rocky9.5-x86_64-netboot-compute",
      "+ 1 PowerState rack3-power",
      "    holds power on on the nodes of NodeSet rack3 (4): r03n[01-04] (4 nodes)",
      "= hosts, DNS, DHCP entries: r01n21,r03n[01-04] added; cn07,r01n03 rewritten",
      "= DNS, DHCP entries: r01n05,r04n[01-02] removed",
      "= /etc/hosts lines stay for r01n05,r04n[01-02]: xCAT's REST API has no makehosts -d (run it on the management node)",
      "= DNS and DHCP as listed if the management node serves them (site.nameservers, site.dhcpsetup not read)",
      "4 to create, 0 to adopt, 3 to update, 0 to replace, 1 to delete, 2 unchanged",
    ]);
  });

  it("counts set nodes for --fail-on delete, reimage and power as it counts Nodes", () => {
    const dangers = summarizePlan(plan).dangers;
    expect(dangers.map(({ kind, count, noderange }) => ({ kind, count, noderange }))).toEqual([
      { kind: "delete", count: 3, noderange: "r01n05,r04n[01-02]" },
      { kind: "reimage", count: 20, noderange: "r02n[01-20]" },
      { kind: "power", count: 4, noderange: "r03n[01-04]" },
    ]);
  });

  it("does not read the management node for a Deployment whose nodes are a set's noderange", () => {
    // The PowerState's and Deployment's nodes are unknown in the preview: nothing to expand there.
    expect(clusterReadsNeeded(plan)?.reasons ?? []).not.toContainEqual(expect.stringMatching(/the nodes of/));
  });

  it("says when a Deployment's nodes are unknown and come from no NodeSet of the plan", () => {
    const orphan = withStep(plan, "rack2-image", (step) => [
      { ...step, newState: { ...step.newState, propertyDependencies: { nodes: [] } } },
    ]);
    const text = renderText(summarizePlan(orphan));
    expect(text).toContain(
      "    deploys rocky9.5-x86_64-netboot-compute onto nodes known only when the resources they come from are applied\n",
    );
    expect(summarizePlan(orphan).dangers.find((d) => d.kind === "reimage")).toBeUndefined();
  });

  it("marks the set's nodes in the review picture: created, deleted, re-imaged, switched", () => {
    const marks = planMarks(summarizePlan(plan));
    // The PowerState's danger (power on here) marks its nodes "power switched", not "switched off".
    expect(marks.get("r03n02")?.[0]).toBe("created");
    expect(marks.get("r03n02")).toContain("power switched");
    expect(marks.get("r01n21")).toEqual(["created"]);
    expect(marks.get("r01n05")).toEqual(["deleted"]);
    expect(marks.get("r04n01")).toEqual(["deleted"]);
    expect(marks.get("r02n17")).toEqual(["re-imaged"]);
    expect(marks.get("r01n03")).toEqual([]);
  });

  it("names the set in the markdown table and in every object's line", () => {
    const markdown = renderMarkdown(summarizePlan(plan));
    expect(markdown).toContain(
      "| update xcat:Node (NodeSet rack2) | provmethod: rocky9.4-x86_64-netboot-compute → rocky9.5-x86_64-netboot-compute | `r02n[01-20]` | 20 |",
    );
    expect(markdown).toContain("~ xcat:Node r01n03 (NodeSet rack1): ip: 10.0.1.3 → 10.0.1.103");
  });
});

describe("review of NodeSet changes the capture does not hold", () => {
  const plan = fixture("nodeset-preview-change.json");

  it("counts a hand edit of one node under preview --refresh as drift on that node", () => {
    // `preview --refresh`: the refresh step holds what the state recorded; the update's oldState is
    // what the server holds, where r01n07's ip was changed by hand (node-set.ts read: rows.r01n07.ip).
    const refreshed = withStep(plan, "rack1", (step) => {
      const recorded = step.oldState ?? {};
      const rows = { ...(recorded.inputs?.rows as Record<string, Record<string, string>>) };
      rows.r01n07 = { ...rows.r01n07, ip: "10.9.9.9" };
      return [
        { op: "refresh", urn: step.urn ?? "", oldState: recorded, newState: recorded },
        { ...step, oldState: { ...recorded, inputs: { ...recorded.inputs, rows } } },
      ];
    });
    const summary = summarizePlan(refreshed);
    expect(renderText(summary)).toContain(
      "~ 1 node r01n07 (NodeSet rack1): ip: 10.9.9.9 (changed by hand) → 10.0.1.7",
    );
    expect(summary.dangers.find((d) => d.kind === "drift")).toMatchObject({ count: 1, noderange: "r01n07" });
  });

  it("counts nodes a set takes over (adopt), per node, with what changes on each", () => {
    const adopting = withStep(plan, "rack3", (step) => [
      {
        ...step,
        newState: {
          ...step.newState,
          inputs: {
            ...step.newState?.inputs,
            adopt: true,
            adoptChanges: { "r03n02.ip": "10.0.3.99 → 10.0.3.2", "r03n02.mgt": "(none) → ipmi" },
          },
        },
      },
    ]);
    const summary = summarizePlan(adopting);
    const text = renderText(summary);
    expect(text).toContain(
      "~ takes over 1 node r03n02 (NodeSet rack3): ip: 10.0.3.99 → 10.0.3.2, mgt: (none) → ipmi",
    );
    expect(text).toContain("+ 3 nodes r03n[01,03-04] (NodeSet rack3) in group rack3");
    expect(summary.dangers.find((d) => d.kind === "adopt")).toMatchObject({ count: 1, noderange: "r03n02" });
  });

  it("counts a set's unprotect as its nodes", () => {
    const unprotected = withStep(plan, "rack1", (step) => [
      {
        ...step,
        oldState: { ...step.oldState, protect: true },
        newState: { ...step.newState, protect: false },
      },
    ]);
    const summary = summarizePlan(unprotected);
    expect(summary.dangers.find((d) => d.kind === "unprotect")).toMatchObject({
      count: 20,
      noderange: "r01n[01-04,06-21]",
    });
  });

  it("counts a set moved to another server as its nodes replaced", () => {
    const moved = withStep(plan, "rack2", (step) => [
      {
        ...step,
        op: "replace",
        newState: {
          ...step.newState,
          inputs: { ...step.newState?.inputs, connection: { url: "https://mn-b/xcatws" } },
        },
      },
    ]);
    const summary = summarizePlan(moved);
    expect(summary.dangers.find((d) => d.kind === "replace")).toMatchObject({
      count: 20,
      noderange: "r02n[01-20]",
    });
    expect(renderText(summary)).toMatch(
      /^\+- 20 nodes replaced r02n\[01-20\] \(NodeSet rack2\) because .*connection/m,
    );
  });
});
