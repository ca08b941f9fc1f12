/**
 * Issue #37 item 1: which values a reviewed plan pins, and when a pin counts as moved
 * (src/cli/pins/review-pins.ts); issue #36 (support-matrix.md N16): each node pinned on the
 * management node its resource writes to. The whole path, review.sh preview → hand edit →
 * review.sh up, is in test/e2e/review-signoff.test.ts (TypeScript), native-review-drift.test.ts
 * (YAML) and explicit-providers.test.ts (explicit providers, two MNs, xCAT and Confluent).
 */
import { describe, expect, it } from "vitest";
import {
  describeGone,
  describeMoved,
  describePin,
  makePins,
  movedPins,
  nodesOf,
  pinnedValue,
  pinsByManagementNode,
  pinTargets,
} from "../../src/cli/pins/review-pins";

const PROVIDER_B = "urn:pulumi:dev::lab::pulumi:providers:xcat::mnB";
const PROVIDER_C = "urn:pulumi:dev::lab::pulumi:providers:xcat::cf";

/** A native node update on an explicit provider, as `preview --json` shows it. */
const nativeStep = (
  name: string,
  provider: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
) => ({
  op: "update",
  urn: `urn:pulumi:dev::lab::xcat:index:Node::${name}`,
  oldState: { provider: `${provider}::id-1`, inputs: { name, attributes: before } },
  newState: { provider: `${provider}::id-1`, inputs: { name, attributes: after } },
});

/** The nodes and attributes of pinTargets, by management node key, as plain values. */
function plainTargets(preview: unknown) {
  return Object.fromEntries(
    [...pinTargets(preview)].map(([key, target]) => [
      key,
      Object.fromEntries([...target.nodes].map(([node, set]) => [node, [...set].sort()])),
    ]),
  );
}

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
  it("pins the attributes each node update changes, each on its node's management node, and nothing of creates, deletes or other kinds", () => {
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
    expect(plainTargets(preview)).toEqual({
      "": { login01: ["bmc"], login02: ["rack", "room"] },
      // A node with its own connection is pinned on that server, read with the state's account.
      "https://other": { far01: ["bmc"] },
    });
    expect(pinTargets(preview).get("https://other")).toMatchObject({
      route: { via: "connection", url: "https://other" },
      resource: "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::far01",
    });
  });

  it("pins a node of an explicit provider on that provider, a same-named node of another apart", () => {
    const preview = {
      steps: [
        nativeStep("b01", PROVIDER_B, { room: "hall-b" }, { room: "hall-b2" }),
        nativeStep("b01", PROVIDER_C, { ip: "10.3.0.1" }, { ip: "10.3.0.2" }),
        {
          op: "same",
          urn: PROVIDER_C,
          type: "pulumi:providers:xcat",
          newState: {
            urn: PROVIDER_C,
            inputs: { url: "https://cf:4005/confluent-api", backend: "confluent" },
          },
        },
      ],
    };
    expect(plainTargets(preview)).toEqual({
      [PROVIDER_B]: { b01: ["room"] },
      [PROVIDER_C]: { b01: ["ip"] },
    });
    expect(pinTargets(preview).get(PROVIDER_C)).toMatchObject({
      route: { via: "provider", urn: PROVIDER_C },
      url: "https://cf:4005/confluent-api",
      backend: "confluent",
    });
  });

  it("pins a NodeSet's nodes that stay in the set, each with the attributes the change alters, on the set's provider", () => {
    const set = (image: string, rows: Record<string, Record<string, string>>) => ({
      provider: `${PROVIDER_B}::id-1`,
      inputs: { groups: ["rack-b", "all"], attributes: { mgt: "ipmi", provmethod: image }, rows },
    });
    const preview = {
      steps: [
        {
          op: "update",
          urn: "urn:pulumi:dev::lab::xcat:index:NodeSet::rackB",
          // rb01 rolled; rb02 rolled and its ip changed; rb03 removed, rb04 added (neither pinned).
          oldState: set("img-1", {
            rb01: { ip: "10.2.1.1" },
            rb02: { ip: "10.2.1.2" },
            rb03: { ip: "10.2.1.3" },
          }),
          newState: set("img-2", {
            rb01: { ip: "10.2.1.1" },
            rb02: { ip: "10.2.1.9" },
            rb04: { ip: "10.2.1.4" },
          }),
        },
        // A set whose values do not change pins nothing.
        {
          op: "update",
          urn: "urn:pulumi:dev::lab::xcat:index:NodeSet::rackC",
          oldState: { ...set("img-1", { rc01: { ip: "10.3.1.1" } }), provider: `${PROVIDER_C}::id-1` },
          newState: { ...set("img-1", { rc01: { ip: "10.3.1.1" } }), provider: `${PROVIDER_C}::id-1` },
        },
      ],
    };
    expect(plainTargets(preview)).toEqual({
      [PROVIDER_B]: { rb01: ["provmethod"], rb02: ["ip", "provmethod"] },
    });
  });

  it("finds the attributes when the engine names only `attributes` (the native provider's diffReasons)", () => {
    const step = {
      ...nodeStep("update", "n01", { ip: "1", mac: "m" }, { ip: "2", mac: "m" }),
      diffReasons: ["attributes"],
    };
    expect(plainTargets({ steps: [step] })).toEqual({ "": { n01: ["ip"] } });
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
    expect(pins.map((pin) => describePin(pin))).toEqual([
      "login01 bmc 10.1.200.1",
      "login01 bmcpassword [secret]",
    ]);
  });

  it("hold while the cluster reads as reviewed; a moved one is named with both values", () => {
    expect(movedPins(pins, (_node, attribute) => cluster[attribute] ?? "")).toEqual([]);
    const moved = movedPins(pins, (_node, attribute) =>
      attribute === "bmc" ? "10.1.200.99" : (cluster[attribute] ?? ""),
    );
    expect(moved.map((entry) => describeMoved(entry))).toEqual([
      "login01 bmc: reviewed 10.1.200.1, now 10.1.200.99",
    ]);
  });

  it("name a changed secret without its values, and a cleared value as (none)", () => {
    const moved = movedPins(pins, (_node, attribute) => (attribute === "bmc" ? "" : "changed"));
    expect(moved.map((entry) => describeMoved(entry))).toEqual([
      "login01 bmc: reviewed 10.1.200.1, now (none)",
      "login01 bmcpassword: reviewed [secret], now [secret] (a secret: changed, values not shown)",
    ]);
  });
});

describe("pins of several management nodes", () => {
  const names = {
    [PROVIDER_B]: {
      route: { via: "provider" as const, urn: PROVIDER_B },
      name: "provider mnB (http://127.0.0.1:1, xCAT)",
    },
  };
  const onStack = makePins(new Map([["login01", new Set(["bmc"])]]), () => "10.1.200.1");
  const onB = makePins(new Map([["b02", new Set(["room"])]]), () => "hall-b", PROVIDER_B);

  it("record the management node of each pin, none for the stack's own, and group by it", () => {
    expect(onStack).toEqual([{ node: "login01", attribute: "bmc", reviewed: "10.1.200.1" }]);
    expect(onB).toEqual([{ node: "b02", attribute: "room", reviewed: "hall-b", at: PROVIDER_B }]);
    expect(pinsByManagementNode([...onStack, ...onB])).toEqual(
      new Map([
        ["", onStack],
        [PROVIDER_B, onB],
      ]),
    );
    expect(nodesOf(onB)).toEqual(new Map([["b02", new Set(["room"])]]));
  });

  it("name the node's management node when it is not the stack's", () => {
    const [moved] = movedPins(onB, () => "moved-by-hand");
    if (moved === undefined) throw new Error("the pin moved");
    expect(describeMoved(moved, names)).toBe(
      "b02 on provider mnB (http://127.0.0.1:1, xCAT) room: reviewed hall-b, now moved-by-hand",
    );
    expect(describePin(moved.pin, names)).toBe("b02 on provider mnB (http://127.0.0.1:1, xCAT) room hall-b");
    expect(describeGone(moved.pin, names)).toBe(
      "b02 on provider mnB (http://127.0.0.1:1, xCAT) room: reviewed hall-b, now the node is not defined on the management node",
    );
  });
});
