/**
 * `pulumi-xcat drift` of NodeSets (issue #38 item 4): a set's refresh is reported per node, and
 * its nodes count as under code. The fixture is the engine's event log of `pulumi refresh
 * --preview-only` (Pulumi 3.259, `__provider` inputs removed) of a NodeSet program on the
 * emulator (review-node-set.test.ts's change, applied), after these edits by hand: r01n03's ip
 * set to 10.9.9.9, r02n04's provmethod (a value common to rack2) set to hand-image, r01n07
 * deleted, and a node stray01 made outside the program.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarizeDrift } from "../../src/cli/drift/drift-summary";
import { parseRefreshEvents } from "../../src/cli/drift/refresh-events";
import { renderDriftText } from "../../src/cli/drift/render-drift";
import { findUnmanaged, type Listing, managedObjects } from "../../src/cli/drift/unmanaged";

const events = parseRefreshEvents(
  readFileSync(join(import.meta.dirname, "fixtures/nodeset-refresh-events.jsonl"), "utf8"),
);
const pad = (n: number) => String(n).padStart(2, "0");

describe("drift of NodeSets, per node", () => {
  it("names the node and attribute changed by hand, and the node deleted by hand, with its set", () => {
    const summary = summarizeDrift(events.steps);
    expect(
      summary.lines.map(({ kind, type, what, noderange, details }) => ({
        kind,
        type,
        what,
        noderange,
        details,
      })),
    ).toEqual([
      {
        kind: "deleted",
        type: "xcat:Node",
        what: "(NodeSet rack1)",
        noderange: "r01n07",
        details: undefined,
      },
      {
        kind: "changed",
        type: "xcat:Node",
        what: "ip (NodeSet rack1)",
        noderange: "r01n03",
        details: { r01n03: "10.0.1.103 → 10.9.9.9" },
      },
      {
        kind: "changed",
        type: "xcat:Node",
        what: "provmethod (NodeSet rack2)",
        noderange: "r02n04",
        details: { r02n04: "rocky9.5-x86_64-netboot-compute → hand-image" },
      },
      {
        kind: "deployment",
        type: "xcat:Node",
        what: "provmethod hand-image, not rocky9.5-x86_64-netboot-compute (rack2-image)",
        noderange: "r02n04",
        details: undefined,
      },
    ]);
    expect(summary.counts).toMatchObject({ deleted: 1, changed: 2, deployment: 1 });
    expect(renderDriftText(summary)).toContain("~ ip (NodeSet rack1) changed by hand on r01n03 (1 node)\n");
  });

  it("counts a set's nodes as under code on its management node", () => {
    const nodes = [
      ...Array.from({ length: 21 }, (_, i) => `r01n${pad(i + 1)}`).filter(
        (n) => !["r01n05", "r01n07"].includes(n),
      ),
      ...Array.from({ length: 20 }, (_, i) => `r02n${pad(i + 1)}`),
      ...Array.from({ length: 4 }, (_, i) => `r03n${pad(i + 1)}`),
      "cn07",
      "stray01",
    ];
    const listing: Listing = { nodes, groups: new Map(), osimages: [], networks: [], policies: new Map() };
    const managed = managedObjects(events.steps);
    const found = findUnmanaged("", listing, managed.get(""));
    const unmanagedNodes = found.find((entry) => entry.type === "xcat:Node");
    expect(unmanagedNodes).toMatchObject({ names: ["stray01"], managed: 44, total: 45 });
  });
});
