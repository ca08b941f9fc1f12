/**
 * Confluent's groups as the nodes of a program need them: Confluent wants a group to exist before
 * a node names it (real-confluent.md item 3, `group nosuchgroup does not exist`), where xCAT has
 * it exist as soon as a node names it; and a group a node leaves behind empty goes with it.
 */

import type { ConfluentClient, ConfluentValue } from "../../client/confluent";
import { isNotFound } from "../../client/errors";
import { CONFLUENT_EVERYTHING_GROUP } from "../../contract/confluent/xcat-attribute-map";
import { sayLine } from "../provider-lines";

const EVERYTHING = CONFLUENT_EVERYTHING_GROUP;

/** The groups a node names that Confluent lacks, created empty before the node names them. */
export async function ensureGroups(
  client: ConfluentClient,
  attributes: Readonly<Record<string, ConfluentValue>>,
) {
  const named = Array.isArray(attributes.groups) ? (attributes.groups as string[]) : [];
  if (named.length === 0) return;
  const existing = new Set(await client.groups.list());
  for (const group of named.filter((name) => !existing.has(name))) {
    sayLine(`pulumi-xcat: creating the Confluent group '${group}', which a node names`);
    await client.groups.create(group, {});
  }
}

/** After a node is gone: its groups that now hold no node and no attribute go too (see above). */
export async function removeEmptyGroups(client: ConfluentClient, groups: readonly string[]): Promise<void> {
  for (const group of groups.filter((name) => name !== EVERYTHING)) {
    const attributes = await client.groups.get(group).catch((error: unknown) => {
      if (isNotFound(error)) return undefined;
      throw error;
    });
    if (!attributes) continue;
    const members = attributes.get("nodes")?.value;
    const holdsNodes = Array.isArray(members) && members.length > 0;
    if (!holdsNodes && [...attributes.keys()].every((name) => name === "nodes"))
      await client.groups.delete(group);
  }
}
