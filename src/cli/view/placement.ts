/**
 * Where the view draws each node, by one documented rule (docs/view.md), in this order:
 *
 * 1. xCAT's own position: `rack` (nodepos.rack) as a rack number, `unit` (nodepos.u) as the
 *    height in it, `room` (nodepos.room) naming the room the rack is in. A node with a numeric rack
 *    but no unit is drawn in that rack below the numbered units, in name order, and the rack says
 *    so. Without a rack, `chassis` (nodepos.chassis) with `slotid` (nodepos.slot) draws the node in
 *    its chassis's slot.
 * 2. Else the name: `r01n05`, `rack1-node5`, `r2u10` read as rack 1 slot 5 (and so on), the usual
 *    noderange pattern of a cluster's names.
 * 3. Else one row per group: the node's first group in its `groups`.
 *
 * A node none of these places is listed with the reason, never dropped; a rack value that is not
 * a number is such a reason (xCAT stores any text there, and a guess would put the node in a
 * wrong rack). Pure.
 */
import { compareStrings } from "../../contract/noderange";

/** What placement reads of a node (its values as xCAT gives them, inherited ones included). */
export interface PlacementInput {
  readonly name: string;
  readonly rack?: string;
  readonly unit?: string;
  readonly room?: string;
  readonly chassis?: string;
  readonly slotid?: string;
  readonly groups?: readonly string[];
}

/** How a column of the drawing was formed. */
export type PlacementRule = "rack" | "chassis" | "name" | "group";

/** One node's place in a column: `position` counts from 1 (a unit, a slot, an index in a row). */
export interface Placed {
  readonly node: string;
  /** Undefined for a node in a rack with no unit: drawn below the numbered units. */
  readonly position: number | undefined;
}

/** A column of the drawing: a rack, a chassis, or a group's row. */
export interface Column {
  /** Stable id: `rack:<room>:<n>`, `chassis:<name>`, `group:<name>`. */
  readonly id: string;
  readonly title: string;
  readonly rule: PlacementRule;
  readonly nodes: readonly Placed[];
  /** What the reader should know of this column (nodes without a unit, two nodes in one unit). */
  readonly notes: readonly string[];
}

export interface Placement {
  readonly columns: readonly Column[];
  /** Nodes that could not be placed, each with why, sorted by name. */
  readonly unplaced: readonly { readonly node: string; readonly reason: string }[];
}

/** A whole non-negative number written in digits (`07`), else undefined. */
function wholeNumber(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? "";
  return /^\d+$/.test(trimmed) ? Number.parseInt(trimmed, 10) : undefined;
}

const NAME_PATTERN = /^(?:[a-z]+-?)?r(?:ack)?-?(\d+)[-_]?(?:n|node|u|s|slot)-?(\d+)$/i;

/**
 * Rack and slot from a node name in the usual patterns, else undefined.
 *
 * @example
 * positionFromName("r01n05"); // { rack: 1, slot: 5 }
 * positionFromName("rack2-node10"); // { rack: 2, slot: 10 }
 */
export function positionFromName(name: string): { rack: number; slot: number } | undefined {
  const match = NAME_PATTERN.exec(name);
  if (!match?.[1] || !match[2]) return undefined;
  return { rack: Number.parseInt(match[1], 10), slot: Number.parseInt(match[2], 10) };
}

interface Building {
  id: string;
  title: string;
  rule: PlacementRule;
  order: [number, string, number];
  nodes: Placed[];
  notes: string[];
}

/** Places nodes by the rule in the file's comment. */
export function placeNodes(inputs: readonly PlacementInput[]): Placement {
  const columns = new Map<string, Building>();
  const unplaced: { node: string; reason: string }[] = [];
  const column = (id: string, title: string, rule: PlacementRule, order: Building["order"]): Building => {
    let found = columns.get(id);
    if (found === undefined) {
      found = { id, title, rule, order, nodes: [], notes: [] };
      columns.set(id, found);
    }
    return found;
  };

  for (const input of inputs) {
    const rackText = input.rack?.trim() ?? "";
    if (rackText !== "") {
      const rack = wholeNumber(rackText);
      if (rack === undefined) {
        unplaced.push({
          node: input.name,
          reason:
            `its rack is '${rackText}' (xCAT's nodepos.rack), which is not a rack number, so the view ` +
            `does not guess a rack for it; set rack to the rack's number (and unit to its height)`,
        });
        continue;
      }
      const room = input.room?.trim() ?? "";
      const unitText = input.unit?.trim() ?? "";
      const unit = wholeNumber(unitText);
      const target = column(
        `rack:${room}:${rack}`,
        room === "" ? `rack ${rack}` : `room ${room}, rack ${rack}`,
        "rack",
        [0, room, rack],
      );
      if (unitText !== "" && unit === undefined) {
        target.notes.push(
          `${input.name}: unit '${unitText}' is not a number; drawn below the numbered units`,
        );
      }
      target.nodes.push({ node: input.name, position: unit });
      continue;
    }
    const chassis = input.chassis?.trim() ?? "";
    if (chassis !== "") {
      const slot = wholeNumber(input.slotid);
      const target = column(`chassis:${chassis}`, `chassis ${chassis}`, "chassis", [1, chassis, 0]);
      if (slot === undefined) {
        target.notes.push(
          `${input.name}: no slot number (slotid '${input.slotid ?? ""}'); drawn after the slots`,
        );
      }
      target.nodes.push({ node: input.name, position: slot });
      continue;
    }
    const fromName = positionFromName(input.name);
    if (fromName !== undefined) {
      column(`rack::${fromName.rack}`, `rack ${fromName.rack}`, "rack", [0, "", fromName.rack]).nodes.push({
        node: input.name,
        position: fromName.slot,
      });
      // A rack formed from names only says so (a rack from attributes and names is one rack).
      continue;
    }
    const group = input.groups?.find((name) => name.trim() !== "");
    if (group !== undefined) {
      column(`group:${group}`, `group ${group}`, "group", [2, group, 0]).nodes.push({
        node: input.name,
        position: undefined,
      });
      continue;
    }
    unplaced.push({
      node: input.name,
      reason: "it has no rack, no chassis, no rack and slot in its name (r01n05) and no group",
    });
  }

  const finished: Column[] = [];
  for (const building of columns.values()) finished.push(finish(building, inputs));
  finished.sort((a, b) => {
    const x = columns.get(a.id)?.order ?? [0, "", 0];
    const y = columns.get(b.id)?.order ?? [0, "", 0];
    return x[0] - y[0] || compareStrings(x[1], y[1]) || x[2] - y[2];
  });
  unplaced.sort((a, b) => compareStrings(a.node, b.node));
  return { columns: finished, unplaced };
}

/** Sorts a column's nodes (numbered first, by position then name; then the rest by name) and notes what a reader needs. */
function finish(building: Building, inputs: readonly PlacementInput[]): Column {
  const nodes = [...building.nodes].sort(
    (a, b) =>
      (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER) ||
      compareStrings(a.node, b.node),
  );
  const notes = [...building.notes];
  if (building.rule === "rack") {
    const byName = new Set(
      inputs.filter((input) => (input.rack?.trim() ?? "") === "").map((input) => input.name),
    );
    const fromNames = nodes.filter((placed) => byName.has(placed.node)).length;
    if (fromNames > 0) {
      notes.unshift(
        fromNames === nodes.length
          ? "placed by node names (no rack attribute set)"
          : `${fromNames} of ${nodes.length} nodes placed by their names (no rack attribute set)`,
      );
    }
    const withoutUnit = nodes.filter((placed) => placed.position === undefined).length;
    if (withoutUnit > 0)
      notes.push(`${withoutUnit} without a unit, drawn below the numbered units in name order`);
  }
  if (building.rule === "group") notes.unshift("no rack, chassis or name pattern: one row per first group");
  const seen = new Map<number, string>();
  for (const placed of nodes) {
    if (placed.position === undefined) continue;
    const other = seen.get(placed.position);
    if (other !== undefined) notes.push(`${other} and ${placed.node} share position ${placed.position}`);
    else seen.set(placed.position, placed.node);
  }
  return { id: building.id, title: building.title, rule: building.rule, nodes, notes };
}
