/**
 * The values a management node holds now for the node attributes pins cover, read by its backend:
 *
 * - xCAT: one `GET /tables/<tables>/rows` however many nodes (review's ClusterFacts), each value
 *   worked out as xCAT does, the node's own else its groups';
 * - Confluent: each node's `attributes/current` (merged into noderange reads by the client), each
 *   xCAT attribute read from the Confluent attribute that holds it
 *   (contract/confluent/xcat-attribute-map.ts), inherited or not, as Confluent reports it. A
 *   secret is never returned (`{"isset": true}`, real-confluent.md item 7): it reads as `(set)` or
 *   unset, so a pin on it moves only when it is set or cleared.
 *
 * Reads only.
 */
import { XcatClient } from "../../client";
import type { NodeAttributes } from "../../client/confluent";
import {
  CONFLUENT_EVERYTHING_GROUP,
  mappingOfXcat,
  xcatValueOf,
} from "../../contract/confluent/xcat-attribute-map";
import { clientOptionsFor, type ProviderSettings } from "../../provider/config";
import { confluentClientFor } from "../drift/listings";

/** What a management node holds: a node attribute's value ("" unset), and whether the node is defined. */
export interface NodeValues {
  readonly value: (node: string, attribute: string) => string;
  readonly defined: (node: string) => boolean;
}

/** What a Confluent secret reads as when set: its value never comes back. */
export const SET_ON_CONFLUENT = "(set)";

/** Reads `targets` (node → attributes) from the management node `settings` reach. */
export async function readNodeValues(
  settings: ProviderSettings,
  targets: ReadonlyMap<string, ReadonlySet<string>>,
): Promise<NodeValues> {
  if (settings.connection?.backend === "confluent") return readConfluentValues(settings, [...targets.keys()]);
  const { readClusterFacts } = await import("../review/cluster-reads.js");
  const client = new XcatClient({
    ...clientOptionsFor(settings.connection, settings),
    batching: settings.batching,
  });
  try {
    const attributes = [...new Set([...targets.values()].flatMap((set) => [...set]))];
    const facts = await readClusterFacts(client, attributes);
    return {
      value: (node, attribute) => facts.value(node, attribute).value,
      defined: (node) => facts.isNode(node),
    };
  } finally {
    await client.close();
  }
}

async function readConfluentValues(
  settings: ProviderSettings,
  nodes: readonly string[],
): Promise<NodeValues> {
  const client = confluentClientFor(settings);
  try {
    const byNode = await client.nodes.getEach(nodes);
    return {
      value: (node, attribute) => confluentValue(byNode.get(node), attribute),
      defined: (node) => byNode.get(node) !== undefined,
    };
  } finally {
    await client.close();
  }
}

/** One xCAT attribute of a node as Confluent reports it, in xCAT's words; "" when unset or unmapped. */
export function confluentValue(reported: NodeAttributes | undefined, attribute: string): string {
  const mapping = mappingOfXcat(attribute);
  const found = mapping === undefined ? undefined : reported?.get(mapping.confluent);
  if (mapping === undefined || found === undefined) return "";
  if (mapping.writeOnly) return found.isset === true ? SET_ON_CONFLUENT : "";
  const value = found.value;
  if (Array.isArray(value))
    return value
      .map(String)
      .filter((group) => group !== CONFLUENT_EVERYTHING_GROUP)
      .join(",");
  if (value !== undefined && value !== null && value !== "") return xcatValueOf(mapping, String(value));
  return found.expression !== undefined ? `{${found.expression}}` : "";
}
