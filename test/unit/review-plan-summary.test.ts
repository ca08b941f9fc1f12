import { describe, expect, it } from "vitest";
import { summarizePlan } from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";

/**
 * Steps in the shape `pulumi preview --json` prints (op, urn, oldState/newState with type and
 * inputs, detailedDiff). TODO(#14): replace with fixtures captured from the real engine by a script.
 */
const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
type Inputs = Record<string, unknown>;
function step(op: string, type: string, name: string, before?: Inputs, after?: Inputs, diff?: string[]) {
  const full = `pulumi-nodejs:dynamic/xcat:${type}`;
  return {
    op,
    urn: `urn:pulumi:dev::lab::${full}::${name}`,
    ...(before ? { oldState: { type: full, inputs: before } } : {}),
    ...(after ? { newState: { type: full, inputs: after } } : {}),
    ...(diff ? { detailedDiff: Object.fromEntries(diff.map((d) => [d, { kind: "update" }])) } : {}),
  };
}
const node = (name: string, provmethod: string) => ({
  name,
  groups: ["compute", "all"],
  attributes: { provmethod, bmcpassword: { ...SIG, value: "hunter2" } },
});
const rack = (r: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${r}n${String(i + 1).padStart(2, "0")}`);

describe("summarizePlan", () => {
  it("collapses one attribute change on 64 nodes, a create and a delete into few lines", () => {
    const steps = [
      { op: "same", urn: "urn:pulumi:dev::lab::pulumi:pulumi:Stack::lab-dev" },
      ...[...rack("r01", 32), ...rack("r02", 32)].map((n) =>
        step("update", "Node", n, node(n, "rocky9.3-compute"), node(n, "rocky9.4-compute"), [
          "attributes.provmethod",
        ]),
      ),
      step("create", "Node", "r03n01", undefined, node("r03n01", "rocky9.4-compute")),
      step("delete", "Node", "r02n33", node("r02n33", "rocky9.3-compute")),
    ];
    const text = renderText(summarizePlan({ steps }));
    expect(text.trim().split("\n").length).toBeLessThanOrEqual(10);
    expect(text).toContain(
      "~ provmethod: rocky9.3-compute → rocky9.4-compute on r[01-02]n[01-32] (64 nodes)",
    );
    expect(text).toContain("+ 1 node r03n01 in group compute");
    expect(text).toContain("- 1 node r02n33 in group compute");
    expect(text.split("\n")[0]).toBe("! 1 node deleted: r02n33");
    expect(text).not.toContain("hunter2");
  });

  it("prints secrets as [secret], never their value", () => {
    const before = node("n1", "a");
    const after = {
      ...node("n1", "a"),
      attributes: { provmethod: "a", bmcpassword: { ...SIG, value: "s3cret" } },
    };
    const summary = summarizePlan({
      steps: [step("update", "Node", "n1", before, after, ["attributes.bmcpassword"])],
    });
    const out = renderText(summary) + renderMarkdown(summary) + JSON.stringify(summary);
    expect(out).toContain("bmcpassword: [secret] → [secret]");
    expect(out).not.toMatch(/hunter2|s3cret/);
  });

  it("marks replacements as dangerous and counts each once", () => {
    const steps = [
      step("replace", "Node", "n1", node("n1", "a"), node("n1", "a"), ["name"]),
      step("create-replacement", "Node", "n1", node("n1", "a"), node("n1", "a"), ["name"]),
      step("delete-replaced", "Node", "n1", node("n1", "a"), node("n1", "a"), ["name"]),
    ];
    const summary = summarizePlan({ steps });
    expect(summary.counts.replace).toBe(1);
    expect(summary.dangers.map((d) => d.kind)).toEqual(["replace"]);
    expect(renderText(summary)).toContain("+- 1 node replaced n1 because name changed");
  });

  it("flags a Deployment osimage change as a re-image of its nodes, with their count", () => {
    const nodes = rack("r01", 4);
    const summary = summarizePlan({
      steps: [
        step("update", "Deployment", "compute", { nodes, osimage: "a" }, { nodes, osimage: "b" }, [
          "osimage",
        ]),
      ],
    });
    expect(summary.dangers).toEqual([
      expect.objectContaining({ kind: "reimage", count: 4, noderange: "r01n[01-04]" }),
    ]);
  });

  it("flags a PowerState power change, policy and site attribute changes", () => {
    const nodes = ["n1", "n2"];
    const summary = summarizePlan({
      steps: [
        step("update", "PowerState", "p", { nodes, power: "on" }, { nodes, power: "off" }, ["power"]),
        step("create", "Policy", "6", undefined, { name: "6", rule: "allow" }),
        step("update", "GlobalConfAttribute", "domain", { value: "a" }, { value: "b" }, ["value"]),
      ],
    });
    expect(summary.dangers.map((d) => [d.kind, d.count])).toEqual([
      ["power", 2],
      ["policy", 1],
      ["site", 1],
    ]);
    expect(renderText(summary)).toContain("~ power: on → off on p (1 PowerState)");
  });

  it("says so when nothing changes", () => {
    const summary = summarizePlan({
      steps: [{ op: "same", urn: "urn:pulumi:dev::lab::pulumi:pulumi:Stack::x" }],
    });
    expect(summary.dangers).toEqual([]);
    expect(renderText(summary)).toContain("No changes.");
  });
});

describe("an adopting Deployment", () => {
  // adoptChanges as the Deployment's check writes it (deployment-adopt.ts takeoverPreview).
  const adopting = (adoptChanges: Record<string, string>) =>
    step("create", "Deployment", "compute-image", undefined, {
      nodes: "r01n[01-04]",
      osimage: "rocky9.4-compute",
      adopt: true,
      adoptChanges,
    });
  const facts = undefined;

  it("counts as re-imaged only the nodes its preview says it deploys", () => {
    const summary = summarizePlan(
      { steps: [adopting({ takesOver: "3 node(s): r01n[01-03]", deploys: "1 node(s): r01n04" })] },
      facts,
    );
    expect(summary.dangers).toEqual([
      expect.objectContaining({ kind: "reimage", count: 1, noderange: "r01n04" }),
      expect.objectContaining({ kind: "adopt", count: 1 }),
    ]);
    expect(renderText(summary)).toContain(
      "    already run rocky9.4-compute: taken over, not deployed: r01n[01-03] (3 nodes)",
    );
    expect(renderText(summary)).toContain("    deploys rocky9.4-compute: r01n04 (1 node)");
  });

  it("re-images none when every node runs the image, and all when the preview could not tell", () => {
    const none = summarizePlan({
      steps: [adopting({ takesOver: "4 node(s): r01n[01-04]", deploys: "none" })],
    });
    expect(none.dangers.map((danger) => danger.kind)).toEqual(["adopt"]);
    expect(renderText(none)).not.toContain("deploys rocky9.4-compute:");
    expect(renderText(none)).toContain("    deploys no node");
    const unknown = summarizePlan(
      {
        steps: [
          adopting({
            takesOver: "not known yet: the nodes are not on the server; up reads them before deploying",
          }),
        ],
      },
      facts,
    );
    expect(unknown.dangers).toContainEqual(expect.objectContaining({ kind: "reimage", count: 4 }));
  });
});
