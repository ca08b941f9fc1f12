/**
 * One tick's picture of the cluster: where each node goes (placement.ts), what it is
 * (node-state.ts) and what a click shows (its attributes, secrets as `[secret]`, inherited ones
 * with their group), from the management node's read and the stack's state. Pure.
 */
import { compareStrings } from "../../contract/noderange";
import { isSecretAttribute } from "../../provider/attributes";
import type { ClusterFacts } from "../review/cluster-facts";
import { VIEW_ATTRIBUTES } from "./cluster-reads";
import { NODE_STATES, type NodeStateKey, type NodeView, nodeView, type ShownValue } from "./node-state";
import { type Placement, placeNodes } from "./placement";
import type { StackNodes } from "./stack-nodes";
import { rollPosition, type UpProgress } from "./up-events";

/** A node's attribute as the detail panel shows it. */
export interface ShownAttribute {
  readonly name: string;
  readonly value: string;
  /** The group it is inherited from. */
  readonly from?: string;
}

export interface NodeDetail extends NodeView {
  readonly attributes: readonly ShownAttribute[];
}

export interface ViewModel {
  /** The management node, as a reader knows it (`the stack's management node (https://…)`). */
  readonly managementNode: string;
  readonly stack: string;
  readonly placement: Placement;
  readonly nodes: ReadonlyMap<string, NodeDetail>;
  readonly counts: Readonly<Record<NodeStateKey, number>>;
  readonly notUnderCode: number;
  readonly withDrift: number;
  /** Nodes the policy pack's node rules report (policy-marks.ts). */
  readonly withPolicy: number;
  /** Sentences the page and terminal show above the drawing (what is not drawn, a failed power read). */
  readonly notes: readonly string[];
}

export interface ViewInputs {
  readonly stack: string;
  readonly managementNode: string;
  readonly nodes: readonly string[];
  readonly facts: ClusterFacts;
  readonly power: ReadonlyMap<string, string>;
  readonly powerProblem?: string;
  readonly stackNodes: StackNodes;
  /** The running (or last) up as its event log tells it, when the view follows one (up-events.ts). */
  readonly upProgress?: UpProgress;
  /** Per node: the policy pack's findings (policy-marks.ts). */
  readonly policy?: ReadonlyMap<string, readonly string[]>;
  /** The sentence on the followed event log, first among the notes. */
  readonly upNote?: string;
}

/**
 * The recorded attributes whose value on the management node differs now: changed outside the
 * program since the stack last wrote them (regex values, stored as the pattern, are left out).
 */
export function changedSinceRecorded(
  facts: ClusterFacts,
  node: string,
  recorded: Readonly<Record<string, string>> | undefined,
): string[] {
  const changed: string[] = [];
  for (const [attribute, value] of Object.entries(recorded ?? {})) {
    if (value.startsWith("|") || isSecretAttribute(attribute)) continue;
    if (facts.value(node, attribute).value !== value) changed.push(attribute);
  }
  return changed.sort(compareStrings);
}

function shown(facts: ClusterFacts, node: string, attribute: string): ShownValue {
  const found = facts.value(node, attribute);
  return found.from === undefined ? { value: found.value } : { value: found.value, from: found.from };
}

export function buildViewModel(inputs: ViewInputs): ViewModel {
  const { facts, stackNodes } = inputs;
  const nodes = new Map<string, NodeDetail>();
  const counts = Object.fromEntries(NODE_STATES.map((state) => [state, 0])) as Record<NodeStateKey, number>;
  let notUnderCode = 0;
  let withDrift = 0;
  let withPolicy = 0;
  const placementInputs = [];
  for (const node of [...inputs.nodes].sort(compareStrings)) {
    const values: Record<string, ShownValue> = {};
    for (const attribute of VIEW_ATTRIBUTES) values[attribute] = shown(facts, node, attribute);
    const wanted = stackNodes.wantedImages.get(node);
    const power = inputs.power.get(node);
    const position =
      wanted && inputs.upProgress ? rollPosition(inputs.upProgress, wanted.deployment, node) : undefined;
    const view = nodeView({
      name: node,
      values,
      ...(power !== undefined ? { power } : {}),
      ...(power === undefined
        ? { powerProblem: inputs.powerProblem ?? "the power read gave nothing for this node" }
        : {}),
      resources: stackNodes.resources.get(node) ?? [],
      ...(wanted ? { wantedImage: wanted } : {}),
      ...(position ? { rollPosition: position } : {}),
      policy: inputs.policy?.get(node) ?? [],
      drift: changedSinceRecorded(facts, node, stackNodes.recorded.get(node)),
    });
    counts[view.state]++;
    if (!view.underCode) notUnderCode++;
    if (view.drift.length > 0) withDrift++;
    if (view.policy.length > 0) withPolicy++;
    const attributes = VIEW_ATTRIBUTES.filter((name) => values[name]?.value !== "").map(
      (name): ShownAttribute => {
        const value = values[name] ?? { value: "" };
        const text = isSecretAttribute(name) ? "[secret]" : value.value;
        return value.from === undefined ? { name, value: text } : { name, value: text, from: value.from };
      },
    );
    nodes.set(node, { ...view, attributes });
    placementInputs.push({
      name: node,
      rack: values.rack?.value ?? "",
      unit: values.unit?.value ?? "",
      room: values.room?.value ?? "",
      chassis: values.chassis?.value ?? "",
      slotid: values.slotid?.value ?? "",
      groups: facts.groupsOf(node),
    });
  }
  const notes: string[] = inputs.upNote ? [inputs.upNote] : [];
  if (inputs.powerProblem) notes.push(`Power is not known: ${inputs.powerProblem}`);
  if (stackNodes.elsewhere > 0) {
    notes.push(
      `${stackNodes.elsewhere} resources of the stack are on other management nodes (an explicit provider or a ` +
        "`connection` of their own); this view draws the stack's own management node only.",
    );
  }
  if (inputs.nodes.length === 0) notes.push(`${inputs.managementNode} holds no nodes.`);
  // A node a resource holds that the management node lacks cannot be drawn: said, not dropped.
  const present = new Set(inputs.nodes);
  const missing = [...stackNodes.resources]
    .filter(
      ([node, resources]) =>
        !present.has(node) && resources.some((r) => r.kind === "xcat:Node" || r.kind === "xcat:NodeSet"),
    )
    .map(([node]) => node)
    .sort(compareStrings);
  if (missing.length > 0) {
    notes.push(
      `Held by the stack but not on the management node (deleted by hand, or not created yet): ${missing.join(", ")}.`,
    );
  }
  return {
    managementNode: inputs.managementNode,
    stack: inputs.stack,
    placement: placeNodes(placementInputs),
    nodes,
    counts,
    notUnderCode,
    withDrift,
    withPolicy,
    notes,
  };
}
