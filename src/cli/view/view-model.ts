/**
 * One tick's picture of the cluster: where each node goes (placement.ts), what it is
 * (node-state.ts) and what a click shows (its attributes, secrets as `[secret]`, inherited ones
 * with their group), from the management node's read and the stack's state. Pure.
 */
import { compareStrings } from "../../contract/noderange";
import type { ClusterFacts } from "../review/cluster-facts";
import { type ClusterNodes, type ShownAttribute, xcatClusterNodes } from "./cluster-nodes";
import { type Backend, NODE_STATES, type NodeStateKey, type NodeView, nodeView } from "./node-state";
import { type Placement, type PlacementInput, placeNodes } from "./placement";
import type { StackNodes } from "./stack-nodes";
import { rollPosition, type UpProgress } from "./up-events";

export type { ShownAttribute } from "./cluster-nodes";

export interface NodeDetail extends NodeView {
  readonly attributes: readonly ShownAttribute[];
}

export interface ViewModel {
  /** The management node, as a reader knows it (`the stack's management node (https://…)`). */
  readonly managementNode: string;
  readonly stack: string;
  /** The server's backend: the legend's and the panel's words differ. Default xcat. */
  readonly backend?: Backend;
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

interface CommonInputs {
  readonly stack: string;
  readonly managementNode: string;
  readonly stackNodes: StackNodes;
  /** The running (or last) up as its event log tells it, when the view follows one (up-events.ts). */
  readonly upProgress?: UpProgress;
  /** Per node: the policy pack's findings (policy-marks.ts). */
  readonly policy?: ReadonlyMap<string, readonly string[]>;
  /** The sentence on the followed event log, first among the notes. */
  readonly upNote?: string;
  /**
   * The sentence on the stack's resources this drawing leaves out; default: stackNodes.elsewhere
   * counted as on other management nodes (one server drawn). The view of several servers says it
   * once for all (view-source.ts).
   */
  readonly undrawnNote?: string | null;
}

/** An xCAT management node's read as review's ClusterFacts (the inputs of the first slice). */
interface XcatInputs extends CommonInputs {
  readonly nodes: readonly string[];
  readonly facts: ClusterFacts;
  readonly power: ReadonlyMap<string, string>;
  readonly powerProblem?: string;
}

/** Any server's nodes (cluster-nodes.ts). */
interface ClusterInputs extends CommonInputs {
  readonly cluster: ClusterNodes;
}

export type ViewInputs = XcatInputs | ClusterInputs;

/**
 * The recorded attributes whose value on the server differs now: changed outside the program
 * since the stack last wrote them (regex values, stored as the pattern, and secrets are left out).
 */
export function changedSinceRecorded(
  facts: ClusterFacts | ClusterNodes,
  node: string,
  recorded: Readonly<Record<string, string>> | undefined,
): string[] {
  const cluster = "differs" in facts ? facts : xcatClusterNodes({ nodes: [], facts, power: new Map() });
  const changed: string[] = [];
  for (const [attribute, value] of Object.entries(recorded ?? {})) {
    if (cluster.differs(node, attribute, value) === true) changed.push(attribute);
  }
  return changed.sort(compareStrings);
}

export function buildViewModel(inputs: ViewInputs): ViewModel {
  const { stackNodes } = inputs;
  const cluster =
    "cluster" in inputs
      ? inputs.cluster
      : xcatClusterNodes({
          nodes: inputs.nodes,
          facts: inputs.facts,
          power: inputs.power,
          ...(inputs.powerProblem ? { powerProblem: inputs.powerProblem } : {}),
        });
  const nodes = new Map<string, NodeDetail>();
  const counts = Object.fromEntries(NODE_STATES.map((state) => [state, 0])) as Record<NodeStateKey, number>;
  let notUnderCode = 0;
  let withDrift = 0;
  let withPolicy = 0;
  const placementInputs: PlacementInput[] = [];
  for (const node of [...cluster.nodes].sort(compareStrings)) {
    const wanted = stackNodes.wantedImages.get(node);
    const power = cluster.power.get(node);
    const position =
      wanted && inputs.upProgress ? rollPosition(inputs.upProgress, wanted.deployment, node) : undefined;
    const view = nodeView({
      name: node,
      boot: cluster.boot(node),
      backend: cluster.backend,
      ...(power !== undefined ? { power } : {}),
      ...(power === undefined
        ? {
            powerProblem:
              cluster.nodePowerProblems?.get(node) ??
              cluster.powerProblem ??
              "the power read gave nothing for this node",
          }
        : {}),
      resources: stackNodes.resources.get(node) ?? [],
      ...(wanted ? { wantedImage: wanted } : {}),
      ...(position ? { rollPosition: position } : {}),
      policy: inputs.policy?.get(node) ?? [],
      drift: changedSinceRecorded(cluster, node, stackNodes.recorded.get(node)),
    });
    counts[view.state]++;
    if (!view.underCode) notUnderCode++;
    if (view.drift.length > 0) withDrift++;
    if (view.policy.length > 0) withPolicy++;
    // Which server the node is on, first in the panel: on a stack with several, names can repeat.
    nodes.set(node, {
      ...view,
      facts: [`server: ${inputs.managementNode}`, ...view.facts],
      attributes: cluster.attributes(node),
    });
    placementInputs.push(cluster.placement(node));
  }
  const notes: string[] = inputs.upNote ? [inputs.upNote] : [];
  if (cluster.powerProblem) notes.push(`Power is not known: ${cluster.powerProblem}`);
  if (inputs.undrawnNote) notes.push(inputs.undrawnNote);
  if (inputs.undrawnNote === undefined && stackNodes.elsewhere > 0) {
    notes.push(
      `${stackNodes.elsewhere} resources of the stack are on other management nodes (an explicit provider or a ` +
        "`connection` of their own); this view draws the stack's own management node only.",
    );
  }
  if (cluster.nodes.length === 0) notes.push(`${inputs.managementNode} holds no nodes.`);
  // A node a resource holds that the management node lacks cannot be drawn: said, not dropped.
  const present = new Set(cluster.nodes);
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
    backend: cluster.backend,
    placement: placeNodes(placementInputs),
    nodes,
    counts,
    notUnderCode,
    withDrift,
    withPolicy,
    notes,
  };
}
