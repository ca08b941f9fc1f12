/**
 * What a NodeSet's create (and the rows an update adds) does with nodes that already exist, the
 * same on every backend once the backend has read them: a node that holds the set's values is
 * taken as it is; one that differs is a conflict without `adopt` (thrown before anything is
 * written for any node: a create would otherwise change it without a word) and is made to match
 * with it. Pure: the reads and the writes are the backend's (resources/node-set.ts for xCAT,
 * confluent/node-set.ts).
 */
import { attributeChanges, differingAttributes } from "./attributes";
import { compactNoderange } from "./node-batches";
import { type NodeSetValues, nodeValues } from "./node-set-plan";
import { ADOPT_ADVICE, ResourceConflictError } from "./spec";

const KIND = "xcat:NodeSet";

export interface NodeSetCreation {
  /** The nodes that exist already, with their own values as the server holds them. */
  readonly existing: ReadonlyMap<string, Record<string, string>>;
  /** Existing nodes taken over with `adopt`, each with the changes that make it match. */
  readonly adoptions: ReadonlyMap<string, Record<string, string>>;
  /** The nodes to create. */
  readonly missing: readonly string[];
}

/**
 * Plans the creation of `nodes` given those of them that exist (`existing`, read by the backend).
 * `where` names the server in messages ("in xCAT", "on Confluent"); `replacing` is true when the
 * set is created as a replacement, whose old copy is deleted next.
 */
export function planNodeSetCreation(
  set: NodeSetValues & { readonly adopt?: boolean | undefined },
  nodes: readonly string[],
  existing: ReadonlyMap<string, Record<string, string>>,
  where: string,
  replacing: boolean,
): NodeSetCreation {
  if (existing.size > 0 && replacing && !set.adopt)
    throw new ResourceConflictError(
      `${KIND}: the nodes ${compactNoderange([...existing.keys()])} already exist ${where} where the set's ` +
        "replacement is to be created, and the replaced set is deleted next. Nothing was changed. To take " +
        "them over on another server, set adopt: true.",
    );
  const conflicts: string[] = [];
  const adoptions = new Map<string, Record<string, string>>();
  for (const [node, reported] of existing) {
    const desired = nodeValues(set, node);
    const differing = differingAttributes(desired, reported);
    if (differing.length === 0) continue;
    if (!set.adopt) conflicts.push(`${node} (${differing.join(", ")})`);
    else adoptions.set(node, attributeChanges({}, desired, reported));
  }
  if (conflicts.length > 0)
    throw new ResourceConflictError(
      `${KIND}: ${conflicts.length === 1 ? "1 node of the set already exists" : `${conflicts.length} nodes of the set already exist`} ${where} ` +
        `with other values: ${conflicts.slice(0, 10).join(", ")}${conflicts.length > 10 ? ", ..." : ""}. ` +
        `Nothing was changed. ${ADOPT_ADVICE}.`,
    );
  return { existing, adoptions, missing: nodes.filter((node) => !existing.has(node)) };
}
