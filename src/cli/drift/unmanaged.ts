/**
 * What exists on a management node that no resource of the stack manages: nodes, groups, OS
 * images, networks and policy rows, each compared by name with the objects the stack's resources
 * hold. Left out, as `pulumi-xcat import` leaves them out: the policy rows a fresh management node
 * gets from xcatconfig (src/cli/import/defaults.ts), and groups that are only names in nodes'
 * `groups` (no attributes of their own, no nodegroup row): such a group is part of its member
 * nodes' definition, which is where a hand-made one shows.
 *
 * Pure: the listing comes from listings.ts, the managed names from the refresh's steps.
 */
import { compareStrings } from "../../contract/noderange";
import { isFreshPolicyRow } from "../import/defaults";
import { NODE_SET, setNodes } from "../review/node-set-changes";
import type { PreviewStep } from "../review/plan-summary";
import { shortType } from "../review/plan-summary";
import { managementNodeKey, managementNodeRoute, STACK_MANAGEMENT_NODE } from "../stack-resources";

export { STACK_MANAGEMENT_NODE };

/** The object kinds drift lists, as the resource types that manage them. */
export const LISTED_TYPES = [
  "xcat:Node",
  "xcat:Group",
  "xcat:Osimage",
  "xcat:Network",
  "xcat:Policy",
] as const;
export type ListedType = (typeof LISTED_TYPES)[number];

/** What one management node holds, as listed. */
export interface Listing {
  readonly nodes: readonly string[];
  /** Every group with its attributes (`members` and `grouptype` included when xCAT shows them). */
  readonly groups: ReadonlyMap<string, Readonly<Record<string, string>>>;
  readonly osimages: readonly string[];
  readonly networks: readonly string[];
  /** Policy rows by priority. */
  readonly policies: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

/** One kind of object on one management node: which no resource manages, of how many. */
export interface Unmanaged {
  /** {@link STACK_MANAGEMENT_NODE} for the stack's own, else how a reader knows it (`provider mnB (…)`). */
  readonly managementNode: string;
  readonly type: ListedType;
  /** The objects no resource manages, sorted. */
  readonly names: readonly string[];
  /** Objects listed that a resource manages. */
  readonly managed: number;
  /** Objects listed (defaults left out). */
  readonly total: number;
}

/**
 * The management node a resource talks to, as a key (stack-resources.ts): its own `connection`
 * URL, its explicit provider's URN, else the stack's ({@link STACK_MANAGEMENT_NODE}).
 */
export function managementNodeKeyOf(step: PreviewStep): string {
  return managementNodeKey(managementNodeRoute(step));
}

/** The xCAT object a resource holds: its id in the state (the node name, the policy priority). */
function objectId(step: PreviewStep): string | undefined {
  const state = (step.oldState ?? step.newState) as { id?: unknown } | undefined;
  return typeof state?.id === "string" && state.id !== "" ? state.id : undefined;
}

/** The names each management node's resources manage, by type, by {@link managementNodeKeyOf}. */
export function managedObjects(steps: readonly PreviewStep[]): Map<string, Map<ListedType, Set<string>>> {
  const managed = new Map<string, Map<ListedType, Set<string>>>();
  for (const step of steps) {
    if (shortType(step) === NODE_SET) {
      // A NodeSet manages each node of its rows, as recorded and as read.
      const nodes = new Set([...setNodes(step.oldState), ...setNodes(step.newState)]);
      const byType = managed.get(managementNodeKeyOf(step)) ?? new Map<ListedType, Set<string>>();
      byType.set("xcat:Node", new Set([...(byType.get("xcat:Node") ?? []), ...nodes]));
      managed.set(managementNodeKeyOf(step), byType);
      continue;
    }
    const type = shortType(step);
    const id = objectId(step);
    if (id === undefined || !(LISTED_TYPES as readonly string[]).includes(type)) continue;
    const node = managementNodeKeyOf(step);
    const byType = managed.get(node) ?? new Map<ListedType, Set<string>>();
    const names = byType.get(type as ListedType) ?? new Set<string>();
    names.add(id);
    byType.set(type as ListedType, names);
    managed.set(node, byType);
  }
  return managed;
}

/** True when a group is an object of its own: attributes besides `members`, or a nodegroup row. */
export function isGroupObject(attributes: Readonly<Record<string, string>>): boolean {
  return Object.entries(attributes).some(([key, value]) => key !== "members" && value !== "");
}

/** The listing's objects per kind, defaults left out. */
function listed(listing: Listing): Record<ListedType, string[]> {
  return {
    "xcat:Node": [...listing.nodes],
    "xcat:Group": [...listing.groups].filter(([, a]) => isGroupObject(a)).map(([name]) => name),
    "xcat:Osimage": [...listing.osimages],
    "xcat:Network": [...listing.networks],
    "xcat:Policy": [...listing.policies]
      .filter(([priority, attributes]) => !isFreshPolicyRow(priority, attributes))
      .map(([priority]) => priority),
  };
}

/**
 * Per kind, what `listing` holds that no resource in `managed` manages. A managed object missing
 * from the listing is not counted here: the refresh reports it as deleted by hand.
 */
export function findUnmanaged(
  managementNode: string,
  listing: Listing,
  managed: ReadonlyMap<ListedType, ReadonlySet<string>> | undefined,
): Unmanaged[] {
  const all = listed(listing);
  return LISTED_TYPES.map((type) => {
    const ours = managed?.get(type) ?? new Set<string>();
    const names = all[type].filter((name) => !ours.has(name)).sort(compareStrings);
    return { managementNode, type, names, managed: all[type].length - names.length, total: all[type].length };
  });
}
