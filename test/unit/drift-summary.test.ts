/**
 * `pulumi-xcat drift`'s summary, every kind (issue #22 item 4): attributes changed by hand,
 * objects deleted by hand, power and deployment no longer as held, unmanaged objects with the
 * defaults left out, coverage; and the engine's real event log of a refresh preview on the lab
 * (test/unit/fixtures/drift-refresh-events.jsonl: Pulumi 3.259, `pulumi refresh --preview-only
 * --event-log` after r01n03 and r01n07's ip and r02n05's room were edited, r02n10 deleted and
 * r01n01 powered off by hand; the provider code strings removed).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasDrift, summarizeDrift } from "../../src/cli/drift/drift-summary";
import { parseRefreshEvents } from "../../src/cli/drift/refresh-events";
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from "../../src/cli/drift/render-drift";
import { findUnmanaged, type Listing, managedObjects } from "../../src/cli/drift/unmanaged";
import type { PreviewStep } from "../../src/cli/review/plan-summary";

const urn = (type: string, name: string) =>
  `urn:pulumi:lab::xcat-lab::pulumi-nodejs:dynamic/${type}::${name}`;

function node(
  name: string,
  op: string,
  before: Record<string, string>,
  after?: Record<string, string>,
): PreviewStep {
  const state = (attributes: Record<string, string>) => ({
    type: "pulumi-nodejs:dynamic/xcat:Node",
    id: name,
    inputs: { name, groups: ["compute"], attributes },
    outputs: { name, groups: ["compute"], attributes },
  });
  return {
    op,
    urn: urn("xcat:Node", name),
    oldState: state(before),
    ...(after ? { newState: state(after) } : {}),
  } as PreviewStep;
}

const SECRET = {
  "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
  ciphertext: "[secret]",
};

describe("drift summary", () => {
  it("groups attributes changed by hand by attribute, as a noderange, with each object's before → after", () => {
    const summary = summarizeDrift([
      node("r01n03", "update", { ip: "10.0.1.3" }, { ip: "10.0.9.3" }),
      node("r01n07", "update", { ip: "10.0.1.7" }, { ip: "10.0.9.7" }),
      node("r02n05", "update", { ip: "10.0.2.5", room: "lab" }, { ip: "10.0.2.5", room: "annex" }),
      node("r02n06", "same", { ip: "10.0.2.6" }, { ip: "10.0.2.6" }),
    ]);
    expect(summary.lines).toEqual([
      {
        kind: "changed",
        type: "xcat:Node",
        what: "ip",
        names: ["r01n03", "r01n07"],
        noderange: "r01n03,r01n07",
        details: { r01n03: "10.0.1.3 → 10.0.9.3", r01n07: "10.0.1.7 → 10.0.9.7" },
      },
      {
        kind: "changed",
        type: "xcat:Node",
        what: "room",
        names: ["r02n05"],
        noderange: "r02n05",
        details: { r02n05: "lab → annex" },
      },
    ]);
    expect(summary.counts.changed).toBe(3);
    expect(hasDrift(summary)).toBe(true);
  });

  it("counts an object changed in two attributes once, and a changed secret shows as [secret]", () => {
    const before = node("n1", "update", { ip: "1", mac: "a" }, { ip: "2", mac: "b" });
    const secret: PreviewStep = {
      op: "update",
      urn: urn("xcat:Group", "compute"),
      oldState: {
        type: "pulumi-nodejs:dynamic/xcat:Group",
        inputs: { name: "compute", attributes: { bmcpassword: SECRET } },
      },
      newState: {
        type: "pulumi-nodejs:dynamic/xcat:Group",
        inputs: { name: "compute", attributes: { bmcpassword: { ...SECRET, x: 1 } } },
      },
    };
    const summary = summarizeDrift([before, secret]);
    expect(summary.counts.changed).toBe(2);
    const group = summary.lines.find((line) => line.type === "xcat:Group");
    expect(group?.details).toEqual({ compute: "[secret] → [secret]" });
    expect(renderDriftText(summary)).not.toContain("ciphertext");
  });

  it("names objects deleted by hand by kind", () => {
    const gone: PreviewStep = {
      op: "delete",
      urn: urn("xcat:Osimage", "rhels9.4"),
      oldState: { type: "pulumi-nodejs:dynamic/xcat:Osimage", inputs: { name: "rhels9.4" } },
    };
    const summary = summarizeDrift([
      node("r02n10", "delete", { ip: "x" }),
      node("r02n11", "delete", { ip: "y" }),
      gone,
    ]);
    expect(summary.lines.map((l) => [l.kind, l.type, l.noderange])).toEqual([
      ["deleted", "xcat:Node", "r02n[10-11]"],
      ["deleted", "xcat:Osimage", "rhels9.4"],
    ]);
    expect(renderDriftText(summary)).toContain("- 2 nodes deleted by hand: r02n[10-11]");
  });

  it("lists nodes whose power is not what their PowerState holds, as read now", () => {
    const power: PreviewStep = {
      op: "update",
      urn: urn("xcat:PowerState", "compute-power"),
      oldState: {
        type: "pulumi-nodejs:dynamic/xcat:PowerState",
        inputs: { nodes: ["a1", "a2", "a3"], power: "on" },
        outputs: { powerStates: { a1: "on", a2: "on", a3: "on" } },
      },
      newState: {
        type: "pulumi-nodejs:dynamic/xcat:PowerState",
        inputs: { nodes: ["a1", "a2", "a3"], power: "on" },
        outputs: { powerStates: { a1: "off", a2: "on", a3: "off" } },
      },
    };
    const summary = summarizeDrift([power]);
    expect(summary.lines).toEqual([
      {
        kind: "power",
        type: "xcat:Node",
        what: "power off (held on by compute-power)",
        names: ["a1", "a3"],
        noderange: "a1,a3",
      },
    ]);
    expect(renderDriftText(summary)).toContain("! power off (held on by compute-power) on a1,a3 (2 nodes)");
  });

  it("lists deployed nodes re-imaged or failing since, not nodes the Deployment never finished", () => {
    const state = (deployed: boolean, osimage: string, status: string) => ({ deployed, osimage, status });
    const deployment: PreviewStep = {
      op: "update",
      urn: urn("xcat:Deployment", "compute-image"),
      oldState: {
        type: "pulumi-nodejs:dynamic/xcat:Deployment",
        inputs: { osimage: "rhels9.4" },
        outputs: {
          nodeStates: {
            n1: state(true, "rhels9.4", "booted"),
            n2: state(true, "rhels9.4", "booted"),
            n3: state(false, "rhels9.4", "installing"),
            n4: state(true, "rhels9.4", "booted"),
          },
        },
      },
      newState: {
        type: "pulumi-nodejs:dynamic/xcat:Deployment",
        inputs: { osimage: "rhels9.4" },
        outputs: {
          nodeStates: {
            n1: state(false, "rocky9.3", "booted"),
            n2: state(false, "rhels9.4", "failed"),
            n3: state(false, "rhels9.4", "installing"),
            n4: state(true, "rhels9.4", "booted"),
          },
        },
      },
    };
    const summary = summarizeDrift([deployment]);
    expect(summary.lines.map((l) => [l.what, l.noderange])).toEqual([
      ["no longer booted with rhels9.4: status failed (compute-image)", "n2"],
      ["provmethod rocky9.3, not rhels9.4 (compute-image)", "n1"],
    ]);
    expect(summary.counts.deployment).toBe(2);
  });

  it("a refresh with nothing changed and nothing unmanaged is no drift", () => {
    const summary = summarizeDrift([node("a", "same", { ip: "1" }, { ip: "1" })]);
    expect(hasDrift(summary)).toBe(false);
    expect(renderDriftText(summary)).toContain("No drift: 1 resources");
  });
});

describe("unmanaged objects", () => {
  const listing: Listing = {
    nodes: ["r01n01", "r01n02", "hand01", "hand02"],
    groups: new Map([
      ["compute", { grouptype: "static", mgt: "ipmi", members: "r01n01,r01n02" }],
      ["rack01", { members: "r01n01,r01n02" }], // only a name in nodes' groups
      ["handmade", { grouptype: "static", members: "" }], // defined by hand (a nodegroup row)
    ]),
    osimages: ["rhels9.4", "old-image"],
    networks: ["mgmt"],
    policies: new Map([
      ["1", { name: "root", rule: "allow" }],
      ["1.2", { name: "mn.example.org", rule: "trusted" }], // xcatconfig's, naming the MN
      ["4.4", { commands: "getpostscript", rule: "allow" }],
      ["3", { commands: "nextdestiny", rule: "deny" }], // xcatconfig's row, changed by hand
      ["7", { name: "ops", rule: "allow" }],
    ]),
  };
  /** A resource the stack holds, as the refresh shows it: its type and the xCAT object's id. */
  const held = (kind: string, id: string): PreviewStep =>
    ({
      op: "same",
      urn: urn(kind, id),
      oldState: { type: `pulumi-nodejs:dynamic/${kind}`, id },
    }) as PreviewStep;
  const managedSteps: PreviewStep[] = [
    ...["r01n01", "r01n02"].map((name) => node(name, "same", {}, {})),
    held("xcat:Group", "compute"),
    held("xcat:Osimage", "rhels9.4"),
    held("xcat:Network", "mgmt"),
    held("xcat:Policy", "7"),
  ];

  it("lists per kind what no resource manages, leaving out xcatconfig's policy rows and groups that are only names", () => {
    const managed = managedObjects(managedSteps);
    const found = findUnmanaged("", listing, managed.get(""));
    expect(found.map((u) => [u.type, u.names, u.managed, u.total])).toEqual([
      ["xcat:Node", ["hand01", "hand02"], 2, 4],
      ["xcat:Group", ["handmade"], 1, 2],
      ["xcat:Osimage", ["old-image"], 1, 2],
      ["xcat:Network", [], 1, 1],
      ["xcat:Policy", ["3"], 1, 2],
    ]);
    const summary = summarizeDrift(managedSteps, found);
    expect(summary.coverage).toEqual([{ managementNode: "", nodes: { managed: 2, total: 4 } }]);
    const text = renderDriftText(summary);
    expect(text).toContain("? 2 nodes on the stack's management node not managed by the stack: hand[01-02]");
    expect(text).toContain("2 of 4 nodes under code on the stack's management node");
    expect(summary.counts.unmanaged).toBe(5);
  });

  it("keeps a resource's own connection apart from the stack's management node", () => {
    const elsewhere: PreviewStep = {
      op: "same",
      urn: urn("xcat:Node", "far01"),
      oldState: {
        type: "pulumi-nodejs:dynamic/xcat:Node",
        id: "far01",
        inputs: { connection: { url: "https://mn2/xcatws" } },
      } as never,
    };
    const managed = managedObjects([elsewhere, ...managedSteps]);
    expect([...(managed.get("https://mn2/xcatws")?.get("xcat:Node") ?? [])]).toEqual(["far01"]);
    expect(managed.get("")?.get("xcat:Node")?.has("far01")).toBe(false);
  });
});

describe("the engine's events of a refresh preview on the lab", () => {
  const text = readFileSync(join(import.meta.dirname, "fixtures/drift-refresh-events.jsonl"), "utf8");

  it("reads every resource's before and after, the config and the result", () => {
    const events = parseRefreshEvents(`${text}{"torn`);
    expect(events.succeeded).toBe(true);
    expect(events.config["xcat:password"]).toBe("[secret]");
    expect(events.steps.filter((s) => s.urn?.includes("dynamic/xcat:"))).toHaveLength(56);
  });

  it("names the three hand edits on two racks, the node deleted and the node powered off", () => {
    const { steps } = parseRefreshEvents(text);
    const summary = summarizeDrift(steps);
    expect(renderDriftText(summary)).toBe(
      [
        "Drift: 3 changed by hand, 1 deleted by hand, 1 with power not as held (56 resources read).",
        "- 1 node deleted by hand: r02n10",
        "~ ip changed by hand on r01n03,r01n07 (2 nodes)",
        "    r01n03: 10.0.1.3 → 10.0.9.3",
        "    r01n07: 10.0.1.7 → 10.0.9.7",
        "~ room changed by hand on r02n05 (1 node)",
        "    r02n05: lab → annex",
        "! power off (held on by compute-power) on r01n01 (1 node)",
        "",
      ].join("\n"),
    );
    const markdown = renderDriftMarkdown(summary);
    expect(markdown).toContain("| changed by hand xcat:Node | ip | `r01n03,r01n07` | 2 |");
    expect(markdown).toContain("~ xcat:Node r01n03: ip: 10.0.1.3 → 10.0.9.3");
    const json = JSON.parse(renderDriftJson(summary));
    expect(json.counts).toEqual({ deleted: 1, changed: 3, power: 1, deployment: 0, unmanaged: 0 });
  });

  it("a refresh that failed is not read as no drift", () => {
    const failed = parseRefreshEvents(
      '{"diagnosticEvent":{"severity":"error","message":"xcat:Node r01n01: 401 Unauthorized\\n"}}\n' +
        '{"summaryEvent":{"result":"failed"}}\n',
    );
    expect(failed.succeeded).toBe(false);
    expect(failed.errors).toEqual(["xcat:Node r01n01: 401 Unauthorized"]);
    expect(parseRefreshEvents("").succeeded).toBe(false);
  });
});
