/**
 * Issue #37 item 1: which values a reviewed plan pins, and when a pin counts as moved
 * (src/cli/pins/review-pins.ts). The whole path, review.sh preview → hand edit → review.sh up,
 * is in test/e2e/review-signoff.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  describeMoved,
  describePin,
  makePins,
  movedPins,
  pinnedValue,
  pinTargets,
} from "../../src/cli/pins/review-pins";

const nodeStep = (
  op: string,
  name: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) => ({
  op,
  urn: `urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::${name}`,
  oldState: { inputs: { name, attributes: before, ...extra } },
  newState: { inputs: { name, attributes: after, ...extra } },
});

describe("pinTargets", () => {
  it("pins the attributes each node update changes, and nothing of creates, deletes, other kinds or other connections", () => {
    const preview = {
      steps: [
        nodeStep(
          "update",
          "login01",
          { bmc: "10.1.200.1", ip: "10.0.0.11" },
          { bmc: "10.1.200.11", ip: "10.0.0.11" },
        ),
        nodeStep("update", "login02", { room: "a" }, { rack: "r1" }),
        nodeStep("create", "login03", {}, { bmc: "10.1.200.3" }),
        nodeStep("delete", "login04", { bmc: "10.1.200.4" }, {}),
        nodeStep("update", "far01", { bmc: "a" }, { bmc: "b" }, { connection: { url: "https://other" } }),
        {
          ...nodeStep("update", "compute", { provmethod: "a" }, { provmethod: "b" }),
          urn: "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Group::compute",
        },
      ],
    };
    expect(pinTargets(preview)).toEqual(
      new Map([
        ["login01", new Set(["bmc"])],
        ["login02", new Set(["rack", "room"])],
      ]),
    );
  });

  it("finds the attributes when the engine names only `attributes` (the native provider's diffReasons)", () => {
    const step = {
      ...nodeStep("update", "n01", { ip: "1", mac: "m" }, { ip: "2", mac: "m" }),
      diffReasons: ["attributes"],
    };
    expect(pinTargets({ steps: [step] })).toEqual(new Map([["n01", new Set(["ip"])]]));
  });
});

describe("pins", () => {
  const targets = new Map([["login01", new Set(["bmc", "bmcpassword"])]]);
  const cluster: Record<string, string> = { bmc: "10.1.200.1", bmcpassword: "hunter2" };
  const pins = makePins(targets, (_node, attribute) => cluster[attribute] ?? "");

  it("keep a secret as its digest, never its value", () => {
    expect(pins).toEqual([
      { node: "login01", attribute: "bmc", reviewed: "10.1.200.1" },
      { node: "login01", attribute: "bmcpassword", reviewed: pinnedValue("bmcpassword", "hunter2") },
    ]);
    expect(JSON.stringify(pins)).not.toContain("hunter2");
    expect(pins.map(describePin)).toEqual(["login01 bmc 10.1.200.1", "login01 bmcpassword [secret]"]);
  });

  it("hold while the cluster reads as reviewed; a moved one is named with both values", () => {
    expect(movedPins(pins, (_node, attribute) => cluster[attribute] ?? "")).toEqual([]);
    const moved = movedPins(pins, (_node, attribute) =>
      attribute === "bmc" ? "10.1.200.99" : (cluster[attribute] ?? ""),
    );
    expect(moved.map(describeMoved)).toEqual(["login01 bmc: reviewed 10.1.200.1, now 10.1.200.99"]);
  });

  it("name a changed secret without its values, and a cleared value as (none)", () => {
    const moved = movedPins(pins, (_node, attribute) => (attribute === "bmc" ? "" : "changed"));
    expect(moved.map(describeMoved)).toEqual([
      "login01 bmc: reviewed 10.1.200.1, now (none)",
      "login01 bmcpassword: reviewed [secret], now [secret] (a secret: changed, values not shown)",
    ]);
  });
});
