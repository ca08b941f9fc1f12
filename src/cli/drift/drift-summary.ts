/**
 * A refresh preview → what was changed on the management nodes outside the program, grouped like
 * a review: one line per attribute changed by hand with the objects as a noderange (`ip on
 * r01n[03,07]`), the objects deleted by hand by kind, the nodes whose power or deployment no
 * longer match what a PowerState or Deployment holds, and, from the listings, what exists on each
 * management node that no resource manages, with a coverage line per management node.
 *
 * Pure (no I/O): the steps come from refresh-events.ts, the listings from listings.ts.
 */
import { compareStrings, compressNoderange } from "../../contract/noderange";
import { nodeValues } from "../../provider/node-set-plan";
import { NODE_SET, setNodes, setValues } from "../review/node-set-changes";
import {
  changedPaths,
  isPlainMap,
  label,
  objectName,
  type PreviewStep,
  shortType,
  showValue,
  valueAt,
} from "../review/plan-summary";
import {
  describeManagementNode,
  explicitProviders,
  managementNodeOf,
  STACK_MANAGEMENT_NODE,
} from "../stack-resources";
import type { Unmanaged } from "./unmanaged";

/** The kinds of drift, in the order they are listed. */
export const DRIFT_KINDS = ["deleted", "changed", "power", "deployment", "unmanaged"] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** One line: one kind of drift shared by `names`. */
export interface DriftLine {
  readonly kind: DriftKind;
  /** Short resource type, e.g. `xcat:Node`. */
  readonly type: string;
  /** `ip`, `power off (held on)`, `not booted with rhels9.4 (status failed)`; empty for a deletion. */
  readonly what: string;
  readonly names: readonly string[];
  readonly noderange: string;
  /** Per object: the value before → after, or what was found. */
  readonly details?: Readonly<Record<string, string>>;
  /**
   * The management node: for `unmanaged` always ("" is the stack's own), for the other kinds when
   * it is not the stack's own (`provider mnB (…)`, a connection's URL).
   */
  readonly managementNode?: string;
}

/** `612 of 618 nodes under code` on one management node. */
export interface Coverage {
  readonly managementNode: string;
  readonly nodes: { readonly managed: number; readonly total: number };
}

export interface DriftSummary {
  readonly lines: readonly DriftLine[];
  readonly coverage: readonly Coverage[];
  /** Objects in each kind of line, for the headline. */
  readonly counts: Readonly<Record<DriftKind, number>>;
  /** Resources the refresh read. */
  readonly resources: number;
  /** Management nodes whose objects were not listed, and why. */
  readonly notListed: readonly string[];
}

const isNodeSet = (type: string) => type === "xcat:Deployment" || type === "xcat:PowerState";

interface Draft {
  readonly kind: DriftKind;
  readonly type: string;
  readonly what: string;
  readonly managementNode?: string;
  readonly names: string[];
  readonly details: Record<string, string>;
}

class DriftBuilder {
  readonly #lines = new Map<string, Draft>();

  add(kind: DriftKind, type: string, what: string, name: string, detail?: string, managementNode?: string) {
    const key = JSON.stringify([kind, type, what, managementNode ?? ""]);
    const draft: Draft = this.#lines.get(key) ?? {
      kind,
      type,
      what,
      names: [],
      details: {},
      ...(managementNode !== undefined ? { managementNode } : {}),
    };
    draft.names.push(name);
    if (detail !== undefined) draft.details[name] = detail;
    this.#lines.set(key, draft);
  }

  build(): DriftLine[] {
    const lines = [...this.#lines.values()].map((draft) => ({
      kind: draft.kind,
      type: draft.type,
      what: draft.what,
      names: [...draft.names].sort(compareStrings),
      noderange: compressNoderange(draft.names),
      // By name, not in the order the engine's parallel reads finished.
      ...(Object.keys(draft.details).length > 0
        ? {
            details: Object.fromEntries(
              Object.entries(draft.details).sort(([a], [b]) => compareStrings(a, b)),
            ),
          }
        : {}),
      ...(draft.managementNode !== undefined ? { managementNode: draft.managementNode } : {}),
    }));
    return lines.sort(
      (a, b) =>
        DRIFT_KINDS.indexOf(a.kind) - DRIFT_KINDS.indexOf(b.kind) ||
        b.names.length - a.names.length ||
        compareStrings(a.type, b.type) ||
        compareStrings(a.what, b.what) ||
        compareStrings(a.noderange, b.noderange),
    );
  }
}

/** Each node a PowerState holds whose power, as read now, is not the one it holds. */
function powerDrift(step: PreviewStep, builder: DriftBuilder, at: string | undefined) {
  const held = step.newState?.inputs?.power;
  const found = step.newState?.outputs?.powerStates;
  if (typeof held !== "string" || !isPlainMap(found)) return;
  for (const [node, power] of Object.entries(found)) {
    if (power !== held) {
      builder.add(
        "power",
        "xcat:Node",
        `power ${showValue(power)} (held ${held} by ${objectName(step)})`,
        node,
        undefined,
        at,
      );
    }
  }
}

/** Each node a Deployment deployed that no longer runs its image: re-imaged or failing since. */
function deploymentDrift(step: PreviewStep, builder: DriftBuilder, at: string | undefined) {
  const image = step.newState?.inputs?.osimage;
  const before = step.oldState?.outputs?.nodeStates;
  const now = step.newState?.outputs?.nodeStates;
  if (typeof image !== "string" || !isPlainMap(now)) return;
  for (const [node, state] of Object.entries(now)) {
    if (!isPlainMap(state)) continue;
    const previous = isPlainMap(before) && isPlainMap(before[node]) ? before[node] : undefined;
    const wasDeployed = previous === undefined || previous.deployed === true;
    if (state.deployed === true || !wasDeployed) continue; // Never deployed yet: `up`'s work, not drift.
    const osimage = showValue(state.osimage || "(none)");
    const status = showValue(state.status || "(none)");
    const what =
      state.osimage !== image
        ? `provmethod ${osimage}, not ${image} (${objectName(step)})`
        : `no longer booted with ${image}: status ${status} (${objectName(step)})`;
    builder.add("deployment", "xcat:Node", what, node, undefined, at);
  }
}

/** The attribute changes an object's read shows: `ip` with `10.0.1.3 → 10.0.9.3` per object. */
function attributeDrift(step: PreviewStep, builder: DriftBuilder, at: string | undefined) {
  const type = shortType(step);
  const name = objectName(step);
  const paths = changedPaths(step);
  for (const path of paths) {
    const before = showValue(valueAt(step.oldState?.inputs, path));
    const after = showValue(valueAt(step.newState?.inputs, path));
    builder.add("changed", type, label(path), name, `${before} → ${after}`, at);
  }
  if (paths.length === 0) builder.add("changed", type, "outputs", name, undefined, at);
}

/**
 * A NodeSet's refresh, per node (node-set.ts read: the rows as the server holds them, a common
 * value a node holds otherwise as its own): `ip` changed on r01n03 (`rows.r01n03.ip`), r01n05
 * deleted by hand; all of them deleted when the read found none.
 */
function nodeSetDrift(step: PreviewStep, builder: DriftBuilder, at: string | undefined) {
  const set = objectName(step);
  if (step.op === "delete") {
    for (const node of setNodes(step.oldState))
      builder.add("deleted", "xcat:Node", `(NodeSet ${set})`, node, undefined, at);
    return;
  }
  const before = setValues(step.oldState);
  const after = setValues(step.newState);
  if (before === undefined || after === undefined) return;
  for (const node of Object.keys(before.rows)) {
    if (!(node in after.rows)) {
      builder.add("deleted", "xcat:Node", `(NodeSet ${set})`, node, undefined, at);
      continue;
    }
    const old = nodeValues(before, node);
    const now = nodeValues(after, node);
    for (const attribute of new Set([...Object.keys(old), ...Object.keys(now)])) {
      if ((old[attribute] ?? "") === (now[attribute] ?? "")) continue;
      builder.add(
        "changed",
        "xcat:Node",
        `${attribute} (NodeSet ${set})`,
        node,
        `${showValue(old[attribute] || undefined)} → ${showValue(now[attribute] || undefined)}`,
        at,
      );
    }
  }
}

/** Summarises a refresh preview's steps and the listings' unmanaged objects. */
export function summarizeDrift(
  steps: readonly PreviewStep[],
  unmanaged: readonly Unmanaged[] = [],
  notListed: readonly string[] = [],
): DriftSummary {
  const builder = new DriftBuilder();
  const providers = explicitProviders(steps);
  let resources = 0;
  for (const step of steps) {
    const type = shortType(step);
    if (type.startsWith("pulumi:")) continue;
    resources++;
    // Objects on another management node than the stack's are said to be there.
    const node = managementNodeOf(step, providers);
    const at = node.key === STACK_MANAGEMENT_NODE ? undefined : describeManagementNode(node);
    if (type === NODE_SET) {
      nodeSetDrift(step, builder, at);
    } else if (step.op === "delete") {
      builder.add("deleted", type, "", objectName(step), undefined, at);
    } else if (type === "xcat:PowerState") {
      powerDrift(step, builder, at);
    } else if (type === "xcat:Deployment") {
      deploymentDrift(step, builder, at);
    } else if (step.op === "update" && !isNodeSet(type)) {
      attributeDrift(step, builder, at);
    }
  }
  for (const entry of unmanaged) {
    for (const name of entry.names)
      builder.add("unmanaged", entry.type, "", name, undefined, entry.managementNode);
  }
  const lines = builder.build();
  const counts = Object.fromEntries(DRIFT_KINDS.map((kind) => [kind, 0])) as Record<DriftKind, number>;
  for (const kind of DRIFT_KINDS) {
    // An object changed in two attributes is one object changed.
    counts[kind] = new Set(
      lines.filter((l) => l.kind === kind).flatMap((l) => l.names.map((n) => `${l.type} ${n}`)),
    ).size;
  }
  const coverage = unmanaged
    .filter((entry) => entry.type === "xcat:Node")
    .map((entry) => ({
      managementNode: entry.managementNode,
      nodes: { managed: entry.managed, total: entry.total },
    }));
  return { lines, coverage, counts, resources, notListed };
}

/** True when the summary holds drift or unmanaged objects (exit 3). */
export function hasDrift(summary: DriftSummary): boolean {
  return summary.lines.length > 0;
}
