/**
 * The `nodes` input of resources that act on many nodes (Deployment, PowerState): a noderange or
 * group, or a list of node names; validated without I/O, expanded with nodels.
 */
import { isNotFound, isXcatError, type XcatClient } from "../../client";
import { compactNoderange } from "../node-batches";
import { ResourceConflictError } from "../spec";
import { describe, isUnknown, nodeNameProblems } from "../validation";

/** The noderange text of a `nodes` input. */
export function rangeOf(nodes: string | readonly string[]): string {
  return typeof nodes === "string" ? nodes : compactNoderange(nodes);
}

/** Problems with a `nodes` input. */
export function nodesInputProblems(value: unknown): string[] {
  if (isUnknown(value)) return [];
  if (typeof value === "string") {
    if (value.trim() === "") return ["nodes must not be empty"];
    return /[/?#%\s]/.test(value)
      ? [
          `nodes '${value}' must not contain '/', '?', '#', '%' or whitespace (it is a noderange or a list of names)`,
        ]
      : [];
  }
  if (!Array.isArray(value) || value.length === 0) {
    return [`nodes must be a noderange or a non-empty list of node names, got ${describe(value)}`];
  }
  return value.flatMap((node, index) => nodeNameProblems(node, `nodes[${index}]`));
}

/** The node names of the range (nodels); a name that is no node is reported on `nodes`. */
export async function expandNodes(
  client: XcatClient,
  kind: string,
  nodes: string | readonly string[],
): Promise<string[]> {
  try {
    return await client.nodes.nodels(rangeOf(nodes));
  } catch (error) {
    // nodels answers 403 "Invalid nodes and/or groups in noderange: x" for a name that is no node.
    if (isNotFound(error) || (isXcatError(error) && /Invalid nodes/.test(error.message))) {
      throw new ResourceConflictError(
        `${kind}: nodes: ${error.messages.join("; ") || error.message}. Define the nodes first (xcat.Node) or fix the noderange.`,
      );
    }
    throw error;
  }
}
