/**
 * What the view model needs of one server's nodes, whichever backend holds them: the names, power,
 * and per node its boot report, its place, its attributes for the panel and whether a recorded
 * value differs now. xCAT's comes from the node tables' raw rows (cluster-reads.ts, review's
 * ClusterFacts); Confluent's from its attributes (confluent-nodes.ts). Pure.
 */
import type { NoderangeContext } from "../../contract/noderange";
import { isSecretAttribute } from "../../provider/attributes";
import type { ClusterRead } from "./cluster-reads";
import { VIEW_ATTRIBUTES } from "./cluster-reads";
import { type Backend, type BootReport, type ShownValue, xcatBoot } from "./node-state";
import type { PlacementInput } from "./placement";

/** A node's attribute as the detail panel shows it. */
export interface ShownAttribute {
  readonly name: string;
  readonly value: string;
  /** The group it is inherited from. */
  readonly from?: string;
}

export interface ClusterNodes {
  readonly backend: Backend;
  /** The node names, in any order. */
  readonly nodes: readonly string[];
  /** Power per node (`on`, `off`, or what the server said). */
  readonly power: ReadonlyMap<string, string>;
  /** Why power is not known for any node, when the read failed whole. */
  readonly powerProblem?: string;
  /** Why power is not known for one node (Confluent reports a node's BMC error inside its answer). */
  readonly nodePowerProblems?: ReadonlyMap<string, string>;
  /** Noderanges and groups of the stack's resources, expanded against this server. */
  readonly context: NoderangeContext;
  boot(node: string): BootReport;
  placement(node: string): PlacementInput;
  /** The panel's attributes in the server's own names; secrets read `[secret]`. */
  attributes(node: string): ShownAttribute[];
  /**
   * Whether the server holds another value now than `recorded`, the value the stack recorded for
   * the program's attribute (xCAT's name); undefined when it cannot be compared (a secret, a
   * write-only value, an attribute the server has no place for).
   */
  differs(node: string, attribute: string, recorded: string): boolean | undefined;
}

/** An xCAT management node's read (cluster-reads.ts) as {@link ClusterNodes}. */
export function xcatClusterNodes(read: ClusterRead): ClusterNodes {
  const { facts } = read;
  const values = (node: string): Record<string, ShownValue> => {
    const found: Record<string, ShownValue> = {};
    for (const attribute of VIEW_ATTRIBUTES) {
      const value = facts.value(node, attribute);
      found[attribute] = value.from === undefined ? { value: value.value } : value;
    }
    return found;
  };
  return {
    backend: "xcat",
    nodes: read.nodes,
    power: read.power,
    ...(read.powerProblem ? { powerProblem: read.powerProblem } : {}),
    context: {
      isNode: (name) => facts.isNode(name),
      groupMembers: (group) => {
        const members = facts.membersOf(group);
        return members.length > 0 ? members : undefined;
      },
    },
    boot: (node) => xcatBoot(values(node)),
    placement: (node) => {
      const shown = values(node);
      return {
        name: node,
        rack: shown.rack?.value ?? "",
        unit: shown.unit?.value ?? "",
        room: shown.room?.value ?? "",
        chassis: shown.chassis?.value ?? "",
        slotid: shown.slotid?.value ?? "",
        groups: facts.groupsOf(node),
      };
    },
    attributes: (node) => {
      const shown = values(node);
      return VIEW_ATTRIBUTES.filter((name) => shown[name]?.value !== "").map((name): ShownAttribute => {
        const value = shown[name] ?? { value: "" };
        const text = isSecretAttribute(name) ? "[secret]" : value.value;
        return value.from === undefined ? { name, value: text } : { name, value: text, from: value.from };
      });
    },
    differs: (node, attribute, recorded) =>
      recorded.startsWith("|") || isSecretAttribute(attribute)
        ? undefined
        : facts.value(node, attribute).value !== recorded,
  };
}
