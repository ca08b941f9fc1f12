/**
 * `pulumi preview --json` → a summary grouped by what changes: identical changes to many objects
 * become one line with a compact noderange, and what a change does to nodes is counted in nodes:
 * the nodes a Deployment deploys or a PowerState switches, the members a group change reaches,
 * the objects an adopting resource takes over with the values it overwrites. Pure (no I/O): what
 * the preview does not carry comes in as {@link ClusterFacts}, read by cluster-reads.ts when
 * {@link clusterReadsNeeded} says so; so every change kind is unit-tested.
 *
 * The preview JSON: `{ steps: [{ op, urn, oldState?, newState?, detailedDiff?, diffReasons? }] }`,
 * states carry `type`, `inputs` and `outputs`; a secret input is an object holding the secret
 * signature key `4dabf18193072939515e22adb298388d` (or the string "[secret]"), and is printed as
 * `[secret]`.
 */

import { compareStrings, compressNoderange, expandNoderange } from "../../contract/noderange";
import { isSecretAttribute } from "../../provider/attributes";
import type { SiteServices } from "../../provider/name-services";
import { takeoverSplitOf } from "../../provider/resources/deployment-adopt";
import { isUnknown } from "../../provider/validation";
import {
  describeManagementNode,
  explicitProviders,
  kindOf,
  managementNodeOf,
  managementNodeRoute,
  SECRET_SIG,
} from "../stack-resources";
import { cannotMoveToConfluent } from "./cannot-move";
import { type ClusterFacts, type PlannedEdits, showNodeValue } from "./cluster-facts";
import { type HandEdit, handEditOf, recordedStates } from "./hand-edits";
import { nameServiceLines } from "./name-service-lines";
import {
  declaredNodeValues,
  NODE_SET,
  nodeSetNodeChanges,
  nodeSetNodeSteps,
  setGroups,
  setNodes,
} from "./node-set-changes";

/** The kinds of change a review flags, in the order they are listed; each is a `--fail-on` word. */
export const DANGER_KINDS = [
  "delete",
  "replace",
  "reimage",
  "power",
  "group",
  "adopt",
  "policy",
  "site",
  "drift",
  "unprotect",
] as const;
export type DangerKind = (typeof DANGER_KINDS)[number];

/** What each kind reads as after its count: [one, several]; `delete` is said per resource kind. */
const DANGER_TEXT: Record<Exclude<DangerKind, "delete" | "group">, readonly [string, string]> = {
  replace: [
    "object replaced (deleted first, then created)",
    "objects replaced (deleted first, then created)",
  ],
  reimage: ["node deployed by a Deployment", "nodes deployed by a Deployment"],
  power: ["node whose power state changes", "nodes whose power state changes"],
  adopt: ["existing object taken over", "existing objects taken over"],
  policy: ["policy change", "policy changes"],
  site: ["site attribute change", "site attribute changes"],
  drift: [
    "object changed or deleted by hand on the management node, put back as the program says",
    "objects changed or deleted by hand on the management node, put back as the program says",
  ],
  unprotect: [
    "object no longer protected (a later change can delete it)",
    "objects no longer protected (a later change can delete them)",
  ],
};

export interface PreviewState {
  readonly type?: string;
  /** The `protect` resource option. */
  readonly protect?: boolean;
  /** The provider reference `<provider urn>::<id>` (stack-resources.ts reads the management node from it). */
  readonly provider?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
  /** Per input, the URNs of the resources its value comes from. */
  readonly propertyDependencies?: Record<string, readonly string[]>;
}
export interface PreviewStep {
  readonly op?: string;
  readonly urn?: string;
  readonly type?: string;
  readonly oldState?: PreviewState;
  readonly newState?: PreviewState;
  readonly detailedDiff?: Record<string, unknown> | null;
  readonly diffReasons?: readonly string[] | null;
}

/** What a change does beyond its own object: nodes it deploys, switches, or whose values it changes. */
export interface ChangeEffect {
  /** `deploys rocky9.4`, `provmethod: rocky9.3 → rocky9.4`, ... */
  readonly what: string;
  /** The nodes it reaches (empty: it reaches none, as `what` says). */
  readonly names: readonly string[];
  readonly noderange: string;
}

/** One summary line: a change shared by `names`. */
export interface ChangeLine {
  readonly op: "create" | "delete" | "update" | "replace" | "adopt" | "unprotect";
  /** Short resource type, e.g. `xcat:Node`. */
  readonly type: string;
  /** What changes: `provmethod: a → b`, or `in group compute` for a create or delete. */
  readonly what: string;
  readonly names: readonly string[];
  readonly noderange: string;
  /** What the change does to nodes, for Deployments, PowerStates and groups. */
  readonly effects?: readonly ChangeEffect[];
  /** Per object: what a reviewer checks (a new node's ip, mac and bmc). */
  readonly details?: Readonly<Record<string, string>>;
  /**
   * The management node the objects are on (`provider mnB (https://mn-b/xcatws, Confluent)`),
   * when the plan reaches one besides the stack's own (stack-resources.ts).
   */
  readonly managementNode?: string;
  /** For nodes a NodeSet holds: the set's resource name (`rack2`), said with the nodes. */
  readonly nodeSet?: string;
}

export interface DangerCount {
  readonly kind: DangerKind;
  readonly text: string;
  readonly count: number;
  readonly noderange: string;
  /** Where the objects are, when the plan reaches a management node besides the stack's own. */
  readonly managementNode?: string;
}

export interface PlanSummary {
  readonly dangers: readonly DangerCount[];
  /** On a Confluent stack: what the preview refused to move, one line each (cannot-move.ts). */
  readonly cannotMove?: readonly string[];
  readonly lines: readonly ChangeLine[];
  /** What the plan does to the management node's hosts, DNS and DHCP entries (name-service-lines.ts). */
  readonly nameServices?: readonly string[];
  readonly counts: {
    create: number;
    adopt: number;
    update: number;
    replace: number;
    delete: number;
    same: number;
  };
}

/** What review must read from the management node for a plan: nothing, or these node attributes. */
export interface ClusterReads {
  /** Node attributes whose stored values (own and groups') are needed; membership always comes along. */
  readonly attributes: readonly string[];
  /** Why, for the reader of an error when the reads fail. */
  readonly reasons: readonly string[];
  /** Whether the site's name-service settings are needed (nodes whose entries change). */
  readonly site?: boolean;
}

/** The core's kind of a step (`xcat:Node`), whichever API the program used (stack-resources.ts). */
export function shortType(step: PreviewStep): string {
  return kindOf(step);
}

export function objectName(step: PreviewStep): string {
  const inputs = step.newState?.inputs ?? step.oldState?.inputs ?? {};
  const name = inputs.name;
  if (typeof name === "string") return name;
  return step.urn?.split("::").at(-1) ?? "?";
}

function isSecret(value: unknown): boolean {
  return value === "[secret]" || (typeof value === "object" && value !== null && SECRET_SIG in value);
}

/** A value as `pulumi preview` would print it: secrets as `[secret]`, absent as `(none)`. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return "(none)";
  if (isSecret(value)) return "[secret]";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return `[${value.map(showValue).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${showValue(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** `attributes.provmethod` or `groups[0]` in the inputs; a secret anywhere on the way is a secret. */
export function valueAt(inputs: Record<string, unknown> | undefined, path: string): unknown {
  let current: unknown = inputs;
  for (const key of path.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (isSecret(current)) return current;
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Inputs that are not the resource's own: the host's `__` keys and adopt's preview-only note. */
const isOwnInput = (key: string) => !key.startsWith("__") && key !== "adoptChanges";

export const isPlainMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);

/**
 * The input paths that differ between the old and new inputs, one level into maps
 * (`attributes.provmethod`). Pulumi 3.259's `preview --json` gives dynamic resources neither
 * `detailedDiff` nor `diffReasons` (measured on the lab), so the inputs are compared here.
 */
function inputDiffPaths(step: PreviewStep): string[] {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  const paths: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!isOwnInput(key)) continue;
    const old = before[key];
    const next = after[key];
    if (isPlainMap(old) && isPlainMap(next)) {
      for (const sub of new Set([...Object.keys(old), ...Object.keys(next)])) {
        if (JSON.stringify(old[sub]) !== JSON.stringify(next[sub])) paths.push(`${key}.${sub}`);
      }
    } else if (JSON.stringify(old) !== JSON.stringify(next)) paths.push(key);
  }
  return paths;
}

/** The input paths that change: from detailedDiff or diffReasons when the engine gives them, else compared. */
export function changedPaths(step: PreviewStep): string[] {
  const paths = Object.keys(step.detailedDiff ?? {});
  const given = paths.length > 0 ? paths : [...(step.diffReasons ?? [])];
  const list = given.length > 0 ? given : inputDiffPaths(step);
  return list.filter(isOwnInput).sort();
}

/** A change of a list of names (a Deployment's `nodes`) as what is added and what is removed. */
function listChange(before: unknown, after: unknown): string | undefined {
  const old = stringList(before);
  const next = stringList(after);
  if (old === undefined || next === undefined) return undefined;
  const added = next.filter((name) => !old.includes(name));
  const removed = old.filter((name) => !next.includes(name));
  const parts = [
    ...(added.length > 0 ? [`+ ${compressNoderange(added)}`] : []),
    ...(removed.length > 0 ? [`- ${compressNoderange(removed)}`] : []),
  ];
  return parts.length > 0 ? parts.join(", ") : undefined;
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === "string")
    ? (value as string[])
    : undefined;
}

/** What a changed path reads as in a line: the top-level `attributes.` prefix says nothing. */
export function label(path: string): string {
  return path.startsWith("attributes.") ? path.slice("attributes.".length) : path;
}

function groupsInput(inputs: Record<string, unknown> | undefined): string[] | undefined {
  return stringList(inputs?.groups);
}

function membership(step: PreviewStep): string {
  const groups = groupsInput(step.newState?.inputs ?? step.oldState?.inputs);
  return groups?.[0] !== undefined ? `in group ${groups[0]}` : "";
}

/** The plain (not secret) attributes of an attribute object's inputs. */
function plainAttributes(inputs: Record<string, unknown> | undefined): Record<string, string> {
  const attributes = inputs?.attributes;
  if (!isPlainMap(attributes)) return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === "string") out[name] = value;
    else if (isSecret(value)) out[name] = "[secret]";
  }
  return out;
}

/** The attributes a reviewer checks on a new node. */
const NEW_NODE_DETAILS = ["ip", "mac", "bmc"] as const;

const isNodeSet = (type: string) => type === "xcat:Deployment" || type === "xcat:PowerState";

/** The `ops` that act: a replacement shows as replace plus create-replacement and delete-replaced, counted once. */
const ACTING_OPS = new Set(["create", "delete", "update", "replace"]);

function stepsOf(preview: unknown): PreviewStep[] {
  return ((preview as { steps?: PreviewStep[] } | null)?.steps ?? []).filter(
    (step) => ACTING_OPS.has(step.op ?? "") && !shortType(step).startsWith("pulumi:"),
  );
}

/**
 * What the summary needs from the management node, or undefined when the preview carries it all
 * (then review sends no request): group members and their values for a group change, a node's
 * inherited value for an attribute the program starts or stops setting, a new node's inherited
 * address, the nodes of a Deployment or PowerState given as a noderange.
 */
export function clusterReadsNeeded(preview: unknown): ClusterReads | undefined {
  // Another management node's values are not read from the stack's (providerReadsNeeded).
  return readsFor(stepsOf(preview).filter((step) => !hasOwnConnection(step)));
}

/**
 * What the summary needs from each explicit provider's management node, by provider URN (see
 * {@link clusterReadsNeeded}; the site's name services are the stack's only).
 */
export function providerReadsNeeded(preview: unknown): Map<string, ClusterReads> {
  const byProvider = new Map<string, PreviewStep[]>();
  for (const step of stepsOf(preview)) {
    const route = managementNodeRoute(step);
    if (route.via === "provider") byProvider.set(route.urn, [...(byProvider.get(route.urn) ?? []), step]);
  }
  const needed = new Map<string, ClusterReads>();
  for (const [urn, steps] of byProvider) {
    const reads = readsFor(steps, false);
    if (reads !== undefined) needed.set(urn, reads);
  }
  return needed;
}

/** The reads `steps` (all on one management node) need; the site's name services when `site`. */
function readsFor(steps: readonly PreviewStep[], withSite = true): ClusterReads | undefined {
  const attributes = new Set<string>();
  const reasons = new Set<string>();
  for (const step of steps) {
    const type = shortType(step);
    const before = step.oldState?.inputs;
    const after = step.newState?.inputs;
    if (type === "xcat:Group") {
      for (const name of Object.keys({ ...plainAttributes(before), ...plainAttributes(after) }))
        attributes.add(name);
      reasons.add("the members a group change reaches");
    } else if (type === "xcat:Node" && step.op === "update") {
      const old = plainAttributes(before);
      const next = plainAttributes(after);
      for (const name of new Set([...Object.keys(old), ...Object.keys(next)])) {
        if ((old[name] === undefined) !== (next[name] === undefined)) {
          attributes.add(name);
          reasons.add("the values nodes have now");
        }
      }
    } else if (type === "xcat:Node" && step.op === "create") {
      const declared = plainAttributes(after);
      for (const name of NEW_NODE_DETAILS) {
        if (declared[name] === undefined) {
          attributes.add(name);
          reasons.add("the addresses new nodes inherit");
        }
      }
    } else if (type === NODE_SET && (step.op === "create" || step.op === "update")) {
      // A new node of the set shows the addresses it gets; those its row and the set do not give, it inherits.
      const old = new Set(step.op === "update" ? setNodes(step.oldState) : []);
      for (const node of setNodes(step.newState)) {
        if (old.has(node)) continue;
        const declared = declaredNodeValues(step, node);
        for (const name of NEW_NODE_DETAILS) {
          if (declared[name] === undefined) {
            attributes.add(name);
            reasons.add("the addresses new nodes inherit");
          }
        }
      }
    } else if (
      isNodeSet(type) &&
      [before?.nodes, after?.nodes].some((nodes) => typeof nodes === "string" && !isUnknown(nodes))
    ) {
      reasons.add(`the nodes of ${type.replace(/^xcat:/, "")} '${objectName(step)}'`);
    }
  }
  const site =
    withSite &&
    steps.some((step) => [NODE_SET, "xcat:Node"].includes(shortType(step)) && step.op !== "replace");
  if (site) reasons.add("whether it serves DNS and DHCP (site.nameservers, site.dhcpsetup)");
  if (reasons.size === 0) return undefined;
  return {
    attributes: [...attributes].sort(compareStrings),
    reasons: [...reasons],
    ...(site ? { site } : {}),
  };
}

interface LineDraft {
  readonly managementNode: string | undefined;
  readonly op: ChangeLine["op"];
  readonly type: string;
  readonly what: string;
  readonly names: string[];
  readonly effects: Map<string, Set<string>>;
  readonly details: Record<string, string>;
  readonly nodeSet: string | undefined;
}

/**
 * Whether the resource talks to another management node than the stack's (its own `connection`,
 * or an explicit `pulumi:providers:xcat`), whose values review does not read.
 */
function hasOwnConnection(step: PreviewStep): boolean {
  return managementNodeRoute(step).via !== "stack";
}

/** Accumulates lines, effects and dangers while the steps are read. */
class SummaryBuilder {
  readonly counts = { create: 0, adopt: 0, update: 0, replace: 0, delete: 0, same: 0 };
  readonly #lines = new Map<string, LineDraft>();
  /** Danger entries by kind and label (delete: per resource kind; group: per group). */
  readonly #dangers = new Map<
    string,
    { kind: DangerKind; label: string; names: Set<string>; managementNode: string | undefined }
  >();
  /** The management node of the step being read, when the plan names them. */
  #at: string | undefined;

  /** The lines and dangers that follow are of objects on `managementNode` (undefined: not named). */
  at(managementNode: string | undefined) {
    this.#at = managementNode;
  }

  line(op: ChangeLine["op"], type: string, what: string, name: string, detail?: string, nodeSet?: string) {
    const key = JSON.stringify([this.#at ?? "", op, type, what, nodeSet ?? ""]);
    const line: LineDraft = this.#lines.get(key) ?? {
      managementNode: this.#at,
      op,
      type,
      what,
      names: [],
      effects: new Map(),
      details: {},
      nodeSet,
    };
    line.names.push(name);
    if (detail !== undefined) line.details[name] = detail;
    this.#lines.set(key, line);
    return {
      effect: (text: string, nodes: Iterable<string>) => {
        const set = line.effects.get(text) ?? new Set<string>();
        for (const node of nodes) set.add(node);
        line.effects.set(text, set);
      },
    };
  }

  danger(kind: DangerKind, names: Iterable<string>, label = "") {
    const key = JSON.stringify([kind, label, this.#at ?? ""]);
    const entry = this.#dangers.get(key) ?? {
      kind,
      label,
      names: new Set<string>(),
      managementNode: this.#at,
    };
    for (const name of names) entry.names.add(name);
    this.#dangers.set(key, entry);
  }

  build(): Omit<PlanSummary, "counts"> {
    const lines: ChangeLine[] = [...this.#lines.values()].map((g) => {
      const effects = [...g.effects].map(([what, names]) => ({
        what,
        names: [...names].sort(compareStrings),
        noderange: compressNoderange(names),
      }));
      return {
        op: g.op,
        type: g.type,
        what: g.what,
        names: [...g.names].sort(compareStrings),
        noderange: compressNoderange(g.names),
        ...(effects.length > 0 ? { effects } : {}),
        ...(Object.keys(g.details).length > 0 ? { details: g.details } : {}),
        ...(g.managementNode !== undefined ? { managementNode: g.managementNode } : {}),
        ...(g.nodeSet !== undefined ? { nodeSet: g.nodeSet } : {}),
      };
    });
    const order = { delete: 0, unprotect: 1, replace: 2, adopt: 3, update: 4, create: 5 };
    lines.sort(
      (a, b) =>
        byManagementNode(a.managementNode, b.managementNode) ||
        order[a.op] - order[b.op] ||
        b.names.length - a.names.length ||
        compareStrings(a.type, b.type) ||
        compareStrings(a.noderange, b.noderange) ||
        compareStrings(a.what, b.what) ||
        compareStrings(a.nodeSet ?? "", b.nodeSet ?? ""),
    );
    const dangers = [...this.#dangers.values()]
      .filter((entry) => entry.names.size > 0)
      .sort(
        (a, b) =>
          DANGER_KINDS.indexOf(a.kind) - DANGER_KINDS.indexOf(b.kind) ||
          compareStrings(a.label, b.label) ||
          byManagementNode(a.managementNode, b.managementNode),
      )
      .map((entry) => ({
        kind: entry.kind,
        text: dangerText(entry.kind, entry.label, entry.names),
        count: entry.names.size,
        noderange: compressNoderange(entry.names),
        ...(entry.managementNode !== undefined ? { managementNode: entry.managementNode } : {}),
      }));
    return { dangers, lines };
  }
}

/** The stack's management node first, then the others by name. */
function byManagementNode(a: string | undefined, b: string | undefined): number {
  const stack = (name: string | undefined) => name === undefined || name.startsWith("the stack's");
  return Number(stack(b)) - Number(stack(a)) || compareStrings(a ?? "", b ?? "");
}

function dangerText(kind: DangerKind, label: string, names: ReadonlySet<string>): string {
  const count = names.size;
  const one = count === 1;
  if (kind === "delete") {
    const noun = label === "xcat:Node" ? "node" : label.replace(/^xcat:/, "");
    return `${one ? noun : plural(noun)} deleted`;
  }
  if (kind === "group" && one && names.has(label))
    return "group whose members' values change (members not read)";
  if (kind === "group")
    return `${one ? "node whose values change" : "nodes whose values change"} through group ${label}`;
  return DANGER_TEXT[kind][one ? 0 : 1];
}

function plural(noun: string): string {
  return noun.endsWith("s") ? `${noun}es` : `${noun}s`;
}

/** The plan's own changes that inheritance sees: created nodes' groups, nodes deleted. */
interface PlanContext {
  readonly created: ReadonlyMap<string, readonly string[]>;
  readonly deleted: ReadonlySet<string>;
  readonly facts: ClusterFacts | undefined;
  /** Why there are no facts: said where they would be used. */
  readonly unread: string;
  /** The plan's NodeSets by URN: a Deployment's or PowerState's `nodes` unknown at preview may be one's noderange. */
  readonly nodeSets: ReadonlyMap<string, { readonly name: string; readonly nodes: readonly string[] }>;
}

/**
 * The NodeSet a Deployment's or PowerState's new `nodes` comes from (`nodes: rack.noderange`),
 * when the set is created or changed by the same plan: the engine knows its noderange only once
 * the set is applied, so the preview holds Pulumi's unknown, and the set's rows say which nodes.
 */
function nodeSetOfTarget(step: PreviewStep, plan: PlanContext) {
  for (const urn of step.newState?.propertyDependencies?.nodes ?? []) {
    const set = plan.nodeSets.get(urn);
    if (set !== undefined) return set;
  }
  return undefined;
}

/** ` onto the nodes of NodeSet rack2` when the target's nodes are a set's noderange not known yet. */
function unknownNodesNote(step: PreviewStep, plan: PlanContext, word: string): string {
  if (!isUnknown(step.newState?.inputs?.nodes)) return "";
  const set = nodeSetOfTarget(step, plan);
  return set !== undefined
    ? ` ${word} the nodes of NodeSet ${set.name} (${set.nodes.length})`
    : ` ${word} nodes known only when the resources they come from are applied`;
}

/** The node names a Deployment's or PowerState's `nodes` input covers. */
function coveredNodes(nodes: unknown, plan: PlanContext, step?: PreviewStep): string[] {
  const list = stringList(nodes);
  if (list !== undefined) return list;
  if (typeof nodes !== "string") return [];
  if (isUnknown(nodes)) return step ? [...(nodeSetOfTarget(step, plan)?.nodes ?? [])] : [];
  // Not read: the names a range spells out (r01n[01-04]) are counted; a word that may be a group
  // stays one entry under its own name.
  if (plan.facts === undefined)
    return expandNoderange(nodes, { isNode: () => false, groupMembers: () => undefined });
  return expandNoderange(nodes, plan.facts.noderangeContext(plan.created, plan.deleted));
}

function deploymentEffects(
  step: PreviewStep,
  op: string,
  plan: PlanContext,
  effect: (text: string, nodes: Iterable<string>) => void,
  danger: SummaryBuilder["danger"],
) {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  const image = showValue(after.osimage ?? before.osimage);
  if (op === "delete") {
    const states = step.oldState?.outputs?.nodeStates;
    const recorded = isPlainMap(states) ? Object.keys(states) : coveredNodes(before.nodes, plan);
    if (before.onDelete === "offline") {
      effect("set offline (nodeset offline) and powered off", recorded);
      danger("power", recorded);
    } else {
      effect("keep their image (onDelete: keep)", recorded);
    }
    return;
  }
  const next = coveredNodes(after.nodes, plan, step);
  const note = unknownNodesNote(step, plan, "onto");
  // An adopting Deployment's preview read which nodes already run the image: those are taken over,
  // not re-imaged (deployment-adopt.ts); when it could not tell, every node counts as deployed.
  const split =
    op === "adopt" && isPlainMap(after.adoptChanges) ? takeoverSplitOf(after.adoptChanges) : undefined;
  if (split) {
    if (split.takesOver.length > 0) effect(`already run ${image}: taken over, not deployed`, split.takesOver);
    if (split.deploys.length > 0) effect(`deploys ${image}`, split.deploys);
    else effect("deploys no node", []);
    danger("reimage", split.deploys);
    return;
  }
  if (op !== "update") {
    effect(`deploys ${image}${note}`, next);
    danger("reimage", next);
    return;
  }
  const old = new Set(coveredNodes(before.nodes, plan));
  const states = step.oldState?.outputs?.nodeStates;
  const deployed = (node: string) =>
    isPlainMap(states) &&
    isPlainMap(states[node]) &&
    (states[node] as { deployed?: unknown }).deployed === true;
  if (before.osimage !== after.osimage) {
    effect(`deploys ${image} (image changed)${note}`, next);
    danger("reimage", next);
  } else {
    const added = next.filter((node) => !old.has(node) && !deployed(node));
    const retried = next.filter((node) => old.has(node) && !deployed(node));
    if (added.length > 0) effect(`deploys ${image} onto nodes added${note && ` (${note.trim()})`}`, added);
    if (retried.length > 0) effect(`deploys ${image} again (not yet booted with it)`, retried);
    danger("reimage", [...added, ...retried]);
  }
  const removed = [...old].filter((node) => !next.includes(node));
  if (removed.length > 0) effect("no longer covered (they keep their image)", removed);
}

function powerStateEffects(
  step: PreviewStep,
  op: string,
  plan: PlanContext,
  effect: (text: string, nodes: Iterable<string>) => void,
  danger: SummaryBuilder["danger"],
) {
  if (op === "delete") return; // Power is left as it is.
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  const power = showValue(after.power);
  const next = coveredNodes(after.nodes, plan, step);
  const note = unknownNodesNote(step, plan, "on");
  if (op !== "update" || before.power !== after.power) {
    effect(`holds power ${power}${note}`, next);
    danger("power", next);
    return;
  }
  const old = new Set(coveredNodes(before.nodes, plan));
  const states = step.oldState?.outputs?.powerStates;
  const recorded = (node: string) => (isPlainMap(states) ? states[node] : undefined);
  const added = next.filter((node) => !old.has(node));
  const repaired = next.filter(
    (node) => old.has(node) && recorded(node) !== undefined && recorded(node) !== after.power,
  );
  if (added.length > 0) effect(`holds power ${power} on nodes added${note && ` (${note.trim()})`}`, added);
  if (repaired.length > 0)
    effect(`switches power ${power} again (found ${showValue(recorded(repaired[0] ?? ""))})`, repaired);
  danger("power", [...added, ...repaired]);
  const removed = [...old].filter((node) => !next.includes(node));
  if (removed.length > 0) effect("no longer held (power left as it is)", removed);
}

/** A node value for a review: secrets as `[secret]`. */
function shownNodeValue(facts: ClusterFacts, node: string, attribute: string, edits?: PlannedEdits): string {
  const found = facts.value(node, attribute, edits);
  if (isSecretAttribute(attribute) && found.value !== "")
    return found.from ? `[secret] (from group ${found.from})` : "[secret]";
  return showNodeValue(found);
}

/**
 * The members whose values a group change alters, per attribute and change (`xcatmaster: 10.0.0.1
 * (from group rack03) → (none)`); a value that differs per member (a regex) reads as such.
 */
function groupEffects(
  step: PreviewStep,
  op: string,
  plan: PlanContext,
  effect: (text: string, nodes: Iterable<string>) => void,
  danger: SummaryBuilder["danger"],
) {
  const group = objectName(step);
  const old: Record<string, string> = op === "create" ? {} : plainAttributes(step.oldState?.inputs);
  const next: Record<string, string> = op === "delete" ? {} : plainAttributes(step.newState?.inputs);
  const values: Record<string, string> = {};
  for (const name of new Set([...Object.keys(old), ...Object.keys(next)])) {
    if (old[name] !== next[name] || op === "create") values[name] = next[name] ?? "";
  }
  if (plan.facts === undefined) {
    effect(`members and their values ${plan.unread}`, []);
    // Counted by the group itself (so `--fail-on group` still stops), said as the group, not a node.
    danger("group", [group], group);
    return;
  }
  const facts = plan.facts;
  const edits: PlannedEdits = { groups: new Map([[group, values]]) };
  const members = facts.membersOf(group).filter((node) => !plan.deleted.has(node));
  const changes = new Map<string, Map<string, string[]>>();
  for (const node of members) {
    for (const attribute of Object.keys(values)) {
      const before = facts.value(node, attribute, undefined);
      const after = facts.value(node, attribute, edits);
      if (before.value === after.value) continue;
      const text = `${shownNodeValue(facts, node, attribute)} → ${shownNodeValue(facts, node, attribute, edits)}`;
      const byText = changes.get(attribute) ?? new Map<string, string[]>();
      byText.set(text, [...(byText.get(text) ?? []), node]);
      changes.set(attribute, byText);
    }
  }
  const reached = new Set<string>();
  for (const [attribute, byText] of [...changes].sort(([a], [b]) => compareStrings(a, b))) {
    const nodes = [...byText.values()].flat();
    for (const node of nodes) reached.add(node);
    // One line per attribute: its change when it is the same on every member, else how many differ.
    const [firstText, firstNodes] = [...byText][0] ?? ["", []];
    const text =
      byText.size === 1
        ? `${attribute}: ${firstText}`
        : `${attribute}: ${byText.size} different changes (${firstNodes[0]}: ${firstText}, …)`;
    effect(text, nodes);
  }
  if (reached.size === 0) {
    effect(
      members.length === 0
        ? "reaches no node: the group has no members"
        : `reaches none of its ${members.length} members: each sets ${Object.keys(values).length === 1 ? "this attribute" : "these attributes"} itself or from an earlier group`,
      [],
    );
  }
  danger("group", reached, group);
}

/**
 * Groups the steps of a preview by what they change; `facts` and `site` are what
 * {@link clusterReadsNeeded} asked for (absent: not read), `providerFacts` what
 * {@link providerReadsNeeded} asked of each explicit provider's management node, by provider URN.
 */
export function summarizePlan(
  preview: unknown,
  facts?: ClusterFacts,
  site?: SiteServices,
  providerFacts: ReadonlyMap<string, ClusterFacts> = new Map(),
): PlanSummary {
  const steps = stepsOf(preview);
  const builder = new SummaryBuilder();
  const created = new Map<string, readonly string[]>();
  const deleted = new Set<string>();
  const nodeSets = new Map<string, { name: string; nodes: readonly string[] }>();
  for (const step of steps) {
    const type = shortType(step);
    if (type === NODE_SET) {
      // The set's nodes are Node creates and deletes for inheritance and noderanges.
      const old = new Set(step.op === "create" ? [] : setNodes(step.oldState));
      const next = new Set(step.op === "delete" ? [] : setNodes(step.newState));
      for (const node of next) if (!old.has(node)) created.set(node, setGroups(step));
      for (const node of old) if (!next.has(node)) deleted.add(node);
      if (step.urn !== undefined) nodeSets.set(step.urn, { name: objectName(step), nodes: [...next] });
      continue;
    }
    if (type !== "xcat:Node") continue;
    if (step.op === "create") created.set(objectName(step), groupsInput(step.newState?.inputs) ?? []);
    if (step.op === "delete") deleted.add(objectName(step));
  }
  const stackPlan: PlanContext = {
    created,
    deleted,
    facts,
    unread: "not read (review --offline)",
    nodeSets,
  };
  // A resource with its own `connection` lives on another management node than the one read.
  const elsewhere: PlanContext = {
    created,
    deleted,
    facts: undefined,
    unread: "not read (the resource has its own connection)",
    nodeSets,
  };
  const otherProvider: PlanContext = { ...elsewhere, unread: "not read (the resource has its own provider)" };
  // Each object's management node is named when the plan reaches one besides the stack's own.
  const all = (preview as { steps?: PreviewStep[] } | null)?.steps ?? [];
  const providers = explicitProviders(all);
  const stackConfig = (preview as { config?: Record<string, unknown> } | null)?.config ?? {};
  const nameManagementNodes = steps.some(hasOwnConnection);
  // With `preview --refresh`, what the state recorded before the refresh (hand-edits.ts).
  const recorded = recordedStates(preview);
  for (const step of steps) {
    const type = shortType(step);
    const route = managementNodeRoute(step);
    const ownFacts = route.via === "provider" ? providerFacts.get(route.urn) : undefined;
    const plan =
      route.via === "stack"
        ? stackPlan
        : route.via === "connection"
          ? elsewhere
          : ownFacts
            ? { ...otherProvider, facts: ownFacts }
            : otherProvider;
    builder.at(
      nameManagementNodes
        ? describeManagementNode(managementNodeOf(step, providers, stackConfig))
        : undefined,
    );
    const adoptChanges = step.newState?.inputs?.adoptChanges;
    const op =
      step.op === "create" && isPlainMap(adoptChanges)
        ? "adopt"
        : (step.op as Exclude<ChangeLine["op"], "unprotect">);
    builder.counts[op]++;
    if (type === NODE_SET) {
      nodeSetLines(step, op, plan, builder, step.urn === undefined ? undefined : recorded.get(step.urn));
      continue;
    }
    const paths = changedPaths(step);
    const name = objectName(step);
    const hand = handEditOf(step, recorded, paths, valueAt);
    if (hand.kind !== "none") builder.danger("drift", [name]);
    if (op === "delete") builder.danger("delete", [name], type);
    if (op === "replace") builder.danger("replace", [name]);
    if (op === "adopt") builder.danger("adopt", [name]);
    if (type === "xcat:Policy") builder.danger("policy", [name]);
    if (type === "xcat:GlobalConfAttribute") builder.danger("site", [name]);

    let line: ReturnType<SummaryBuilder["line"]>;
    if (op === "adopt") {
      const changes = Object.entries(adoptChanges as Record<string, unknown>)
        .sort(([a], [b]) => compareStrings(a, b))
        .map(([attribute, change]) => `${attribute}: ${showValue(change)}`);
      line = builder.line(op, type, changes.length > 0 ? changes.join(", ") : "no attribute changes", name);
    } else if (op === "update" && (isNodeSet(type) || type === "xcat:Group")) {
      const what = paths
        .map((path) => describePathChange(step, path, type, name, plan.facts, hand))
        .join("; ");
      line = builder.line(op, type, what || (type === "xcat:Deployment" ? "retry" : "repair"), name);
    } else if (op === "update") {
      for (const path of paths)
        builder.line(op, type, describePathChange(step, path, type, name, plan.facts, hand), name);
      if (paths.length === 0) builder.line(op, type, "changed", name);
      continue;
    } else if (op === "replace") {
      const byHand =
        hand.kind === "edited" ? ` (${[...hand.recorded.keys()].map(label).join(", ")} changed by hand)` : "";
      line = builder.line(
        op,
        type,
        paths.length > 0 ? `because ${paths.map(label).join(", ")} changed${byHand}` : "",
        name,
      );
    } else {
      const detail = type === "xcat:Node" && op === "create" ? newNodeDetail(step, name, plan) : undefined;
      const what = [membership(step), hand.kind === "deleted" ? "(deleted by hand, re-created)" : ""]
        .filter((part) => part)
        .join(" ");
      line = builder.line(op, type, what, name, detail);
    }
    if (type === "xcat:Deployment")
      deploymentEffects(step, op, plan, line.effect, builder.danger.bind(builder));
    if (type === "xcat:PowerState")
      powerStateEffects(step, op, plan, line.effect, builder.danger.bind(builder));
    if (type === "xcat:Group") groupEffects(step, op, plan, line.effect, builder.danger.bind(builder));
  }
  unprotectLines(all, builder, (step) =>
    nameManagementNodes ? describeManagementNode(managementNodeOf(step, providers, stackConfig)) : undefined,
  );
  const { dangers, lines } = builder.build();
  // Unchanged resources are not listed as steps in `preview --json`, only counted.
  const summary = (preview as { changeSummary?: { same?: unknown } } | null)?.changeSummary;
  const counts = { ...builder.counts };
  counts.same =
    typeof summary?.same === "number"
      ? summary.same
      : ((preview as { steps?: PreviewStep[] } | null)?.steps ?? []).filter(
          (step) =>
            ["same", "read", "refresh"].includes(step.op ?? "same") && !shortType(step).startsWith("pulumi:"),
        ).length;
  const cannotMove = cannotMoveToConfluent(preview);
  const config = (preview as { config?: Record<string, unknown> } | null)?.config ?? {};
  const nodeSteps = steps
    .filter((step) => !hasOwnConnection(step))
    .flatMap((step) =>
      shortType(step) === "xcat:Node"
        ? [{ name: objectName(step), step }]
        : shortType(step) === NODE_SET && step.op !== "replace"
          ? nodeSetNodeSteps(step)
          : [],
    );
  const nameServices = nameServiceLines(nodeSteps, config, site);
  return {
    dangers,
    lines,
    ...(nameServices.length > 0 ? { nameServices } : {}),
    counts,
    ...(cannotMove.length > 0 ? { cannotMove } : {}),
  };
}

/**
 * A NodeSet's change as its nodes' (node-set-changes.ts): lines of `xcat:Node` tagged with the set,
 * and every danger counted in nodes as a Node's would be (deleted, replaced, taken over, changed
 * by hand). An adopting set takes over the nodes its preview found (`adoptChanges` keyed
 * `node.attribute`) and creates the others.
 */
function nodeSetLines(
  step: PreviewStep,
  op: Exclude<ChangeLine["op"], "unprotect">,
  plan: PlanContext,
  builder: SummaryBuilder,
  recorded: PreviewState | undefined,
) {
  const set = objectName(step);
  const adoptChanges = step.newState?.inputs?.adoptChanges;
  const takenOver = new Map<string, string[]>();
  if (op === "adopt" && isPlainMap(adoptChanges)) {
    for (const [key, change] of Object.entries(adoptChanges).sort(([a], [b]) => compareStrings(a, b))) {
      const dot = key.indexOf(".");
      const node = key.slice(0, dot);
      takenOver.set(node, [...(takenOver.get(node) ?? []), `${key.slice(dot + 1)}: ${showValue(change)}`]);
    }
  }
  if (op === "replace") {
    // Moved to another management node (its connection or provider): each node is deleted there and created here.
    const paths = [...new Set(changedPaths(step).map((path) => path.split(".")[0] ?? path))];
    const why = paths.length > 0 ? `because ${paths.join(", ")} changed` : "";
    for (const node of new Set([...setNodes(step.oldState), ...setNodes(step.newState)])) {
      builder.line("replace", "xcat:Node", why, node, undefined, set);
      builder.danger("replace", [node]);
    }
    return;
  }
  const changes = nodeSetNodeChanges(step, op, recorded);
  if (changes.length === 0 && op === "update") builder.line(op, "xcat:Node", "repair", set, undefined, set);
  for (const change of changes) {
    const { node } = change;
    if (takenOver.has(node)) {
      builder.line("adopt", "xcat:Node", (takenOver.get(node) ?? []).join(", "), node, undefined, set);
      builder.danger("adopt", [node]);
      continue;
    }
    const detail = change.op === "create" ? setNodeDetail(step, node, plan) : undefined;
    builder.line(change.op, "xcat:Node", change.what, node, detail, set);
    if (change.op === "delete") builder.danger("delete", [node], "xcat:Node");
    if (change.handEdited) builder.danger("drift", [node]);
  }
}

/** A new node of a set: ip, mac and bmc from its row or the set, else what it inherits (as a Node's). */
function setNodeDetail(step: PreviewStep, node: string, plan: PlanContext): string {
  const declared = declaredNodeValues(step, node);
  // The node's own values decide where some attributes live (bmc in ipmi when its mgt is ipmi).
  const { groups: _groups, ...own } = declared;
  const edits: PlannedEdits = {
    nodeGroups: new Map([[node, [...setGroups(step)]]]),
    nodes: new Map([[node, own]]),
  };
  return NEW_NODE_DETAILS.map((attribute) => {
    const value = declared[attribute];
    if (value !== undefined) return `${attribute} ${value}`;
    return `${attribute} ${plan.facts ? shownNodeValue(plan.facts, node, attribute, edits) : plan.unread}`;
  }).join(", ");
}

/**
 * A `protect` option the change removes, as its own line and danger: the engine shows it only as a
 * 🔓 on an otherwise unchanged resource (the preview's step is a `same`), yet it is the first of the
 * two changes that delete an imported node, and the second's review cannot show who unprotected it.
 */
function unprotectLines(
  steps: readonly PreviewStep[],
  builder: SummaryBuilder,
  managementNodeOfStep: (step: PreviewStep) => string | undefined,
): void {
  for (const step of steps) {
    if (step.op === "delete" || step.op === "refresh" || shortType(step).startsWith("pulumi:")) continue;
    if (step.oldState?.protect !== true || step.newState?.protect === true) continue;
    builder.at(managementNodeOfStep(step));
    const name = objectName(step);
    if (shortType(step) === NODE_SET) {
      // A set's protect covers each of its nodes: they are what a later change can delete.
      for (const node of setNodes(step.newState ?? step.oldState)) {
        builder.line("unprotect", "xcat:Node", "protect removed", node, undefined, name);
        builder.danger("unprotect", [node]);
      }
      continue;
    }
    builder.line("unprotect", shortType(step), "protect removed", name);
    builder.danger("unprotect", [name]);
  }
}

/**
 * `provmethod: rocky9.3 (from group compute) → rocky9.4`: an attribute a node's program starts
 * or stops setting shows the value the node has (or will have) from its groups. A value changed
 * by hand since the last update says so: `bmc: 10.1.1.33 (changed by hand) → 10.1.1.3`, or
 * `(changed by hand from 10.1.1.3)` when the program changes it too.
 */
function describePathChange(
  step: PreviewStep,
  path: string,
  type: string,
  name: string,
  facts: ClusterFacts | undefined,
  hand: HandEdit,
): string {
  const oldValue = valueAt(step.oldState?.inputs, path);
  const newValue = valueAt(step.newState?.inputs, path);
  const listed = listChange(oldValue, newValue);
  if (listed !== undefined) return `${label(path)}: ${listed}`;
  let before = showValue(oldValue);
  let after = showValue(newValue);
  if (type === "xcat:Node" && facts !== undefined && path.startsWith("attributes.")) {
    const attribute = label(path);
    if (oldValue === undefined) before = shownNodeValue(facts, name, attribute);
    if (newValue === undefined) {
      after = shownNodeValue(facts, name, attribute, { nodes: new Map([[name, { [attribute]: "" }]]) });
    }
  }
  if (hand.kind === "edited" && hand.recorded.has(path)) {
    const was = hand.recorded.get(path);
    before +=
      JSON.stringify(was) === JSON.stringify(newValue)
        ? " (changed by hand)"
        : ` (changed by hand from ${showValue(was)})`;
  }
  return `${label(path)}: ${before} → ${after}`;
}

/** `ip 10.0.3.1, mac 52:54:00:00:03:01, bmc 10.1.3.1`: what a reviewer checks on a new node. */
function newNodeDetail(step: PreviewStep, name: string, plan: PlanContext): string {
  const declared = plainAttributes(step.newState?.inputs);
  const edits: PlannedEdits = { nodeGroups: new Map([[name, groupsInput(step.newState?.inputs) ?? []]]) };
  return NEW_NODE_DETAILS.map((attribute) => {
    const value = declared[attribute];
    if (value !== undefined) return `${attribute} ${value}`;
    return `${attribute} ${plan.facts ? shownNodeValue(plan.facts, name, attribute, edits) : plan.unread}`;
  }).join(", ");
}
