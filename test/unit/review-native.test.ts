/**
 * `pulumi-xcat review` of YAML, Python and Go stacks (issue #36 item 4): the native provider's
 * types (`xcat:index:Deployment`) read as the TypeScript program's (`pulumi-nodejs:dynamic/
 * xcat:Deployment`), a Deployment of a noderange counts its nodes, every `--fail-on` kind is
 * found, and the objects of a stack with explicit providers are named by management node. The
 * fixtures are what the real engine printed (see test/unit/stack-resources.test.ts); the issue's
 * plan printed `+ 1 index:Deployment` and no danger.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import {
  clusterReadsNeeded,
  DANGER_KINDS,
  providerReadsNeeded,
  summarizePlan,
} from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", name), "utf8"));
const rack02 = Array.from({ length: 10 }, (_, i) => `r02n${String(i + 1).padStart(2, "0")}`);

describe("review of a YAML Deployment of r02n[01-10] on the default provider", () => {
  const plan = fixture("native-preview-deployment.json");
  // What review reads for it: the management node's nodelist (the nodes the noderange names).
  const facts = new ClusterFacts({
    nodelist: rack02.map((node) => ({ node, groups: "compute,rack02,all" })),
  });

  it("asks the management node for the nodes of the noderange", () => {
    expect(clusterReadsNeeded(plan)?.reasons).toEqual(["the nodes of Deployment 'rack02-image'"]);
  });

  it("counts the Deployment's 10 nodes as re-imaged", () => {
    const summary = summarizePlan(plan, facts);
    expect(summary.dangers).toEqual([
      {
        kind: "reimage",
        text: "nodes deployed by a Deployment",
        count: 10,
        noderange: "r02n[01-10]",
      },
    ]);
    expect(renderText(summary).trimEnd().split("\n")).toEqual([
      "! 10 nodes deployed by a Deployment: r02n[01-10]",
      "+ 1 Deployment rack02-image",
      "    deploys rocky9.4-x86_64-netboot-compute: r02n[01-10] (10 nodes)",
      "1 to create, 0 to adopt, 0 to update, 0 to replace, 0 to delete, 12 unchanged",
    ]);
  });
});

describe("review of a change on two of three explicit providers (two xCAT, one Confluent)", () => {
  it("names each object's management node: the provider, and its url and backend with --show-sames", () => {
    const text = renderText(summarizePlan(fixture("native-preview-providers-change-sames.json")));
    expect(text.trimEnd().split("\n")).toEqual([
      "On provider mnA (http://127.0.0.1:38063/xcatws):",
      "~ ip: 10.1.0.1 → 10.1.0.9 on a01 (1 node)",
      "On provider mnC (http://127.0.0.1:34501/confluent-api, Confluent):",
      "~ ip: 10.3.0.1 → 10.3.0.9 on c01 (1 node)",
      "0 to create, 0 to adopt, 2 to update, 0 to replace, 0 to delete, 6 unchanged",
    ]);
  });

  it("names the providers by name when the preview leaves them out (no --show-sames)", () => {
    const summary = summarizePlan(fixture("native-preview-providers-change.json"));
    expect(summary.lines.map((line) => [line.managementNode, line.noderange])).toEqual([
      ["provider mnA", "a01"],
      ["provider mnC", "c01"],
    ]);
    expect(renderMarkdown(summary)).toContain("| **on provider mnC** | | | |");
    // Nothing of another management node is read from the stack's.
    expect(clusterReadsNeeded(fixture("native-preview-providers-change.json"))).toBeUndefined();
  });
});

describe("review of a Deployment of a noderange on an explicit provider", () => {
  // The captured Deployment step of the default provider's stack, put on mnA of the providers' stack.
  const recorded = fixture("native-preview-deployment.json") as { steps: Array<Record<string, unknown>> };
  const mnA = "urn:pulumi:test::native-review-mns::pulumi:providers:xcat::mnA";
  const onMnA = {
    steps: recorded.steps.map((step) =>
      step.op === "create"
        ? {
            ...step,
            provider: `${mnA}::9b4545c3`,
            newState: { ...(step.newState as object), provider: `${mnA}::9b4545c3` },
          }
        : step,
    ),
  };

  it("asks mnA, not the stack's management node, for its nodes, and counts them from what mnA holds", () => {
    expect(clusterReadsNeeded(onMnA)).toBeUndefined();
    expect([...providerReadsNeeded(onMnA)]).toEqual([
      [mnA, { attributes: [], reasons: ["the nodes of Deployment 'rack02-image'"] }],
    ]);
    const mnAFacts = new ClusterFacts({ nodelist: rack02.map((node) => ({ node, groups: "all" })) });
    const read = summarizePlan(onMnA, undefined, undefined, new Map([[mnA, mnAFacts]]));
    expect(read.dangers).toEqual([
      expect.objectContaining({ kind: "reimage", count: 10, managementNode: "provider mnA" }),
    ]);
    // Not read (review --offline, or a provider the plan creates): the noderange as given.
    const unread = summarizePlan(onMnA);
    expect(unread.dangers).toEqual([expect.objectContaining({ kind: "reimage", noderange: "r02n[01-10]" })]);
  });
});

/** One plan with a change of every `--fail-on` kind, as a TypeScript program's or a native one's preview. */
function everyKind(token: (kind: string) => string) {
  const step = (op: string, kind: string, name: string, before?: object, after?: object) => ({
    op,
    urn: `urn:pulumi:dev::lab::${token(kind)}::${name}`,
    ...(before ? { oldState: { type: token(kind), inputs: before } } : {}),
    ...(after ? { newState: { type: token(kind), inputs: after } } : {}),
  });
  return {
    steps: [
      step("delete", "Node", "old01", { name: "old01", groups: ["all"], attributes: {} }),
      step(
        "replace",
        "Osimage",
        "img",
        { name: "img", attributes: { osvers: "a" } },
        { name: "img", attributes: { osvers: "b" } },
      ),
      step("create", "Deployment", "roll", undefined, { nodes: ["r02n01", "r02n02"], osimage: "img" }),
      step("create", "PowerState", "on", undefined, { nodes: ["r02n03"], power: "on" }),
      step(
        "update",
        "Group",
        "compute",
        { name: "compute", attributes: {} },
        { name: "compute", attributes: { xcatmaster: "10.0.0.9" } },
      ),
      step("create", "Node", "legacy01", undefined, {
        name: "legacy01",
        groups: ["all"],
        attributes: { ip: "10.0.0.6" },
        adoptChanges: { ip: "10.0.0.5 → 10.0.0.6" },
      }),
      step("create", "Policy", "7", undefined, { priority: "7", attributes: { name: "alice" } }),
      step(
        "update",
        "GlobalConfAttribute",
        "domain",
        { name: "domain", value: "a" },
        { name: "domain", value: "b" },
      ),
      // `preview --refresh`: login01's bmc was changed by hand since the last update; the change puts it back.
      step("refresh", "Node", "login01", {
        name: "login01",
        groups: ["all"],
        attributes: { bmc: "10.1.0.1" },
      }),
      step(
        "update",
        "Node",
        "login01",
        { name: "login01", groups: ["all"], attributes: { bmc: "10.1.0.99" } },
        { name: "login01", groups: ["all"], attributes: { bmc: "10.1.0.1" } },
      ),
      // An imported node's `protect` removed, nothing else changed: the engine's step is a `same`.
      {
        ...step(
          "same",
          "Node",
          "imported01",
          { name: "imported01", groups: ["all"], attributes: {} },
          {
            name: "imported01",
            groups: ["all"],
            attributes: {},
          },
        ),
        oldState: {
          type: token("Node"),
          protect: true,
          inputs: { name: "imported01", groups: ["all"], attributes: {} },
        },
      },
    ],
  };
}

describe("every --fail-on kind on a native stack, as on a TypeScript one", () => {
  const facts = new ClusterFacts({ nodelist: rack02.map((node) => ({ node, groups: "compute,all" })) });

  it("finds each kind in the native preview and says it exactly as for the dynamic one", () => {
    const dynamic = summarizePlan(
      everyKind((kind) => `pulumi-nodejs:dynamic/xcat:${kind}`),
      facts,
    );
    const native = summarizePlan(
      everyKind((kind) => `xcat:index:${kind}`),
      facts,
    );
    expect(native.dangers.map((danger) => danger.kind)).toEqual([...DANGER_KINDS]);
    expect(native).toEqual(dynamic);
  });

  it("reads the recorded lab previews the same with the native provider's type tokens", () => {
    for (const name of ["lab-preview-image-roll.json", "lab-preview-rack-shrink.json"]) {
      const text = readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
      const native = JSON.parse(text.replaceAll("pulumi-nodejs:dynamic/xcat:", "xcat:index:"));
      expect(renderText(summarizePlan(native))).toBe(renderText(summarizePlan(JSON.parse(text))));
    }
  });
});
