/**
 * The `nodes` input of PowerState and Deployment on Confluent: a noderange or group as the program
 * gives it (Confluent's noderange grammar takes names, groups, `,` and `[a-b]` ranges, noderange.py
 * 3.15.6), or a list of names, sent as a comma list; expanded with `GET /noderange/<nr>/nodes/`.
 * xCAT's group `all` in it is Confluent's `everything` (contract/confluent/xcat-attribute-map.ts).
 */
import { isNotFound, isXcatError } from "../../client";
import type { ConfluentClient, PerNodeResult } from "../../client/confluent";
import { confluentNoderangeOf } from "../../contract/confluent/xcat-attribute-map";
import { ResourceConflictError } from "../spec";

/** The noderange text for Confluent of a `nodes` input; xCAT's group `all` is `everything`. */
export function confluentRange(nodes: string | readonly string[]): string {
  return confluentNoderangeOf(typeof nodes === "string" ? nodes : nodes.join(","));
}

export async function expandOnConfluent(
  client: ConfluentClient,
  kind: string,
  nodes: string | readonly string[],
): Promise<string[]> {
  try {
    return await client.nodes.list(confluentRange(nodes));
  } catch (error) {
    // "Invalid Noderange: x not a recognized node, group, or alias" (real-confluent.md item 12).
    if (isNotFound(error)) {
      throw new ResourceConflictError(
        `${kind}: nodes: ${isXcatError(error) ? error.messages.join("; ") || error.message : error}. ` +
          "Define the nodes first (xcat.Node) or fix the noderange.",
      );
    }
    throw error;
  }
}

/** The nodes of a per-node answer that failed, with Confluent's reason. */
export function failedNodes(results: ReadonlyMap<string, PerNodeResult>): Map<string, string> {
  const failed = new Map<string, string>();
  for (const [node, result] of results) if ("error" in result) failed.set(node, result.error);
  return failed;
}
