/**
 * The values a review read, pinned for the apply (issue #37 item 1). A saved plan pins the
 * operations and the program's inputs, but not what the management node holds: `pulumi up --plan`
 * compares the program with the state, not with xCAT, so a hand edit of an attribute the plan
 * changes (login01's bmc set to .99 after the review showed .1 → .11) would be overwritten without
 * anyone having seen it. So for every node attribute the plan writes, the review records the value
 * xCAT holds at review time; before the apply, `pulumi-xcat pins check` reads them again and the
 * apply is refused when one moved. Attributes no change touches are not pinned: a hand edit of
 * them neither blocks the apply nor is written by it (the update writes only what the plan
 * changes).
 *
 * A NodeSet's update pins, per node that stays in the set, the attributes whose value the set's
 * change alters (its `attributes` for every node, a node's own row cell for that node), on the
 * set's management node as a Node's (issue #36 item 1): a rack's image roll pins each node's
 * provmethod.
 *
 * A node the change puts back after a hand edit (hand-edits.ts) is refreshed before the apply, so
 * every attribute it declares would be written from the program: all of them are pinned, and the
 * pins file lists the resources to refresh (`refreshTargets`), tied to the plan by its checksum.
 *
 * Each node is pinned on the management node its resource writes to (issue #36, support-matrix.md
 * N16): the stack's own (its config `xcat:*`), an explicit `pulumi:providers:xcat` (by its URN),
 * or a TypeScript resource's own `connection` (stack-resources.ts says how each shows in the
 * preview). A pin records which; the stack's own pins carry no `at`, as before.
 *
 * Pure: the reads come in as functions, so every case is unit-tested.
 */
import { createHash } from "node:crypto";
import { compareStrings } from "../../contract/noderange";
import { isSecretAttribute } from "../../provider/attributes";
import { handEditOf, recordedStates } from "../review/hand-edits";
import { NODE_SET, nodeSetNodeSteps } from "../review/node-set-changes";
import {
  changedPaths,
  isPlainMap,
  objectName,
  type PreviewStep,
  shortType,
  valueAt,
} from "../review/plan-summary";
import {
  explicitProviders,
  type ManagementNodeRoute,
  managementNodeKey,
  managementNodeOf,
  STACK_MANAGEMENT_NODE,
} from "../stack-resources";

/** The pins file's format version: a file of another version is refused, not guessed at. */
export const PINS_VERSION = 3;

/** One node attribute the plan writes, and what xCAT held for it when the review read it. */
export interface Pin {
  readonly node: string;
  readonly attribute: string;
  /** The value read ("" = unset); for a secret attribute, `sha256:<hex>` of it, never the value. */
  readonly reviewed: string;
  /** The key of its management node in {@link PinsFile.managementNodes}; absent: the stack's own. */
  readonly at?: string;
}

/** A management node other than the stack's own that pins were read from. */
export interface PinnedManagementNode {
  readonly route: ManagementNodeRoute;
  /** As messages name it: `provider mnB (http://…, xCAT)`. */
  readonly name: string;
  /** For a `connection`: the URN of a resource whose state holds it (its credentials are read there). */
  readonly resource?: string;
}

export interface PinsFile {
  readonly version: number;
  /** sha256 of the plan file these pins belong to: pins of another review are refused. */
  readonly planSha256: string;
  readonly stack: string | undefined;
  /** The stack config's `xcat:*` keys as the preview showed them (secrets as `[secret]`). */
  readonly connection: Readonly<Record<string, unknown>>;
  readonly pins: readonly Pin[];
  /** The management nodes the pins' `at` name, by key (stack-resources.ts managementNodeKey). */
  readonly managementNodes: Readonly<Record<string, PinnedManagementNode>>;
  /** The resources the change puts back after a hand edit: refreshed just before the apply. */
  readonly refreshTargets: readonly string[];
}

/** The nodes to pin on one management node, and what is known of it from the preview. */
export interface PinTarget {
  readonly route: ManagementNodeRoute;
  /** Its url and backend as the preview shows them (a provider's only when the preview lists it). */
  readonly url?: string;
  readonly backend?: string;
  /** For a `connection`: the URN of the first resource that holds it. */
  readonly resource?: string;
  /** Node name → the attributes to pin. */
  readonly nodes: Map<string, Set<string>>;
}

/**
 * What to pin: the node attributes each update step changes, by the key of the management node
 * the node's resource writes to ({@link STACK_MANAGEMENT_NODE} for the stack's own).
 */
export function pinTargets(preview: unknown): Map<string, PinTarget> {
  const targets = new Map<string, PinTarget>();
  const steps = (preview as { steps?: PreviewStep[] } | null)?.steps ?? [];
  const config = (preview as { config?: Record<string, unknown> } | null)?.config ?? {};
  const providers = explicitProviders(steps);
  const recorded = recordedStates(preview);
  for (const step of steps) {
    if (step.op !== "update") continue;
    let byNode: Array<[string, string[]]>;
    if (shortType(step) === NODE_SET) byNode = nodeSetPins(step);
    else if (shortType(step) === "xcat:Node") {
      const handEdited = handEditOf(step, recorded, changedPaths(step), valueAt).kind !== "none";
      byNode = [[objectName(step), handEdited ? declaredAttributes(step) : changedAttributes(step)]];
    } else continue;
    byNode = byNode.filter(([, attributes]) => attributes.length > 0);
    if (byNode.length === 0) continue;
    const node = managementNodeOf(step, providers, config);
    const key = managementNodeKey(node.route);
    const target = targets.get(key) ?? {
      route: node.route,
      ...(node.url !== undefined ? { url: node.url } : {}),
      ...(node.backend !== undefined ? { backend: node.backend } : {}),
      ...(node.route.via === "connection" && step.urn !== undefined ? { resource: step.urn } : {}),
      nodes: new Map<string, Set<string>>(),
    };
    targets.set(key, target);
    for (const [name, attributes] of byNode) {
      const set = target.nodes.get(name) ?? new Set<string>();
      for (const attribute of attributes) set.add(attribute);
      target.nodes.set(name, set);
    }
  }
  return targets;
}

/**
 * A NodeSet update's nodes that stay in the set, each with the attributes its values change
 * (the set's own rule, node-set-changes.ts); nodes created or deleted are not pinned, as a Node's
 * create or delete is not.
 */
function nodeSetPins(step: PreviewStep): Array<[string, string[]]> {
  const pins: Array<[string, string[]]> = [];
  for (const { name, step: nodeStep } of nodeSetNodeSteps(step)) {
    if (nodeStep.op !== "update") continue;
    const before = nodeStep.oldState?.inputs?.attributes;
    const after = nodeStep.newState?.inputs?.attributes;
    const old = isPlainMap(before) ? before : {};
    const next = isPlainMap(after) ? after : {};
    const changed = [...new Set([...Object.keys(old), ...Object.keys(next)])].filter(
      (attribute) => JSON.stringify(old[attribute]) !== JSON.stringify(next[attribute]),
    );
    pins.push([name, changed]);
  }
  return pins;
}

/**
 * The node attributes an update changes: `attributes.<name>` paths of the diff, and when the
 * engine names only `attributes` (the native provider's diffReasons), the keys whose values differ.
 */
function changedAttributes(step: PreviewStep): string[] {
  const names = new Set<string>();
  for (const path of changedPaths(step)) {
    if (path.startsWith("attributes.")) names.add(path.slice("attributes.".length));
    if (path !== "attributes") continue;
    const before = step.oldState?.inputs?.attributes;
    const after = step.newState?.inputs?.attributes;
    const old = isPlainMap(before) ? before : {};
    const next = isPlainMap(after) ? after : {};
    for (const name of new Set([...Object.keys(old), ...Object.keys(next)]))
      if (JSON.stringify(old[name]) !== JSON.stringify(next[name])) names.add(name);
  }
  return [...names];
}

/** Every attribute a node update declares or held: what the refresh before the apply exposes. */
function declaredAttributes(step: PreviewStep): string[] {
  const names = new Set<string>();
  for (const state of [step.oldState, step.newState]) {
    for (const key of ["attributes", "secretAttributes"]) {
      const map = state?.inputs?.[key];
      if (isPlainMap(map)) for (const name of Object.keys(map)) names.add(name);
    }
  }
  return [...names];
}

/** A read value as it is kept in a pins file: a secret as its digest, so the file holds no secret. */
export function pinnedValue(attribute: string, value: string): string {
  if (!isSecretAttribute(attribute) || value === "") return value;
  return `sha256:${createHash("sha256").update(value).digest("hex")}`;
}

/**
 * The pins of `targets` on one management node, with each value from `read` (its value now, ""
 * when unset); `at` is the management node's key, left out for the stack's own.
 */
export function makePins(
  targets: ReadonlyMap<string, ReadonlySet<string>>,
  read: (node: string, attribute: string) => string,
  at: string = STACK_MANAGEMENT_NODE,
): Pin[] {
  const pins: Pin[] = [];
  for (const node of [...targets.keys()].sort(compareStrings)) {
    for (const attribute of [...(targets.get(node) ?? [])].sort(compareStrings)) {
      const reviewed = pinnedValue(attribute, read(node, attribute));
      pins.push({ node, attribute, reviewed, ...(at === STACK_MANAGEMENT_NODE ? {} : { at }) });
    }
  }
  return pins;
}

/** The pins by the key of their management node ({@link STACK_MANAGEMENT_NODE} for the stack's own). */
export function pinsByManagementNode(pins: readonly Pin[]): Map<string, Pin[]> {
  const grouped = new Map<string, Pin[]>();
  for (const pin of pins) {
    const key = pin.at ?? STACK_MANAGEMENT_NODE;
    grouped.set(key, [...(grouped.get(key) ?? []), pin]);
  }
  return grouped;
}

/** Node → attributes of some pins: what to read again. */
export function nodesOf(pins: readonly Pin[]): Map<string, Set<string>> {
  const targets = new Map<string, Set<string>>();
  for (const pin of pins) targets.set(pin.node, (targets.get(pin.node) ?? new Set()).add(pin.attribute));
  return targets;
}

/** A pin whose value moved since the review. */
export interface MovedPin {
  readonly pin: Pin;
  readonly now: string;
}

/** The pins whose value `read` now gives differently (as kept: secrets as digests). */
export function movedPins(
  pins: readonly Pin[],
  read: (node: string, attribute: string) => string,
): MovedPin[] {
  const moved: MovedPin[] = [];
  for (const pin of pins) {
    const now = pinnedValue(pin.attribute, read(pin.node, pin.attribute));
    if (now !== pin.reviewed) moved.push({ pin, now });
  }
  return moved;
}

/** ` on provider mnB (http://…, xCAT)` for a pin of another management node than the stack's; "" for the stack's. */
function onManagementNode(pin: Pin, managementNodes: PinsFile["managementNodes"]): string {
  if (pin.at === undefined) return "";
  return ` on ${managementNodes[pin.at]?.name ?? pin.at}`;
}

/**
 * `login01 bmc: reviewed 10.1.200.1, now 10.1.200.99`; secrets as `[secret]`, unset as `(none)`;
 * a node of another management node than the stack's is named with it (`b02 on provider mnB (…)`).
 */
export function describeMoved(
  { pin, now }: MovedPin,
  managementNodes: PinsFile["managementNodes"] = {},
): string {
  const show = (value: string) =>
    value === "" ? "(none)" : isSecretAttribute(pin.attribute) ? "[secret]" : value;
  const secretNote = isSecretAttribute(pin.attribute) ? " (a secret: changed, values not shown)" : "";
  const where = onManagementNode(pin, managementNodes);
  return `${pin.node}${where} ${pin.attribute}: reviewed ${show(pin.reviewed)}, now ${show(now)}${secretNote}`;
}

/** A pinned value as shown: `[secret]` for a secret, `(none)` when unset. */
function shownPinned(pin: Pin): string {
  return pin.reviewed === "" ? "(none)" : isSecretAttribute(pin.attribute) ? "[secret]" : pin.reviewed;
}

/** `login01 bmc 10.1.200.1`: a pin as the review lists it (with its management node when not the stack's). */
export function describePin(pin: Pin, managementNodes: PinsFile["managementNodes"] = {}): string {
  return `${pin.node}${onManagementNode(pin, managementNodes)} ${pin.attribute} ${shownPinned(pin)}`;
}

/** A pin whose node is gone from the management node since the review. */
export function describeGone(pin: Pin, managementNodes: PinsFile["managementNodes"] = {}): string {
  return (
    `${pin.node}${onManagementNode(pin, managementNodes)} ${pin.attribute}: reviewed ${shownPinned(pin)}, ` +
    "now the node is not defined on the management node"
  );
}

/** sha256 of a plan file's bytes, as review.md names it and the pins file records it. */
export function planChecksum(planText: string | Buffer): string {
  return createHash("sha256").update(planText).digest("hex");
}
