/**
 * `pulumi-xcat import --backend confluent`: reads a Confluent server's nodes and groups and turns
 * them into the cluster the renderers write, in the program's (xCAT's) attribute names
 * (contract/confluent/xcat-attribute-map.ts), for a stack whose `xcat:backend` is `confluent`.
 *
 * What is a node's own is what Confluent reports without `inheritedfrom` (real-confluent.md item
 * 8); a group's own attributes are what its attributes/current lists. Secrets never come back
 * (`{"isset": true}`, item 7): they become config secrets the README asks for, and Confluent's
 * backend compares a secret by whether it is set, so the first `up` writes none. Expressions
 * (`{"expression": "10.0.{n1}"}`, item 10) become the xCAT `|pattern|replacement|` value that
 * translates back to exactly that expression. Reads: one per group, one for every node.
 */
import type { ConfluentClient, NodeAttributes } from "../../client/confluent";
import {
  CONFLUENT_EVERYTHING_GROUP,
  mappingOfConfluent,
  XCAT_ALL_GROUP,
  XCAT_TO_CONFLUENT,
  xcatRegexOfExpression,
  xcatValueOf,
} from "../../contract/confluent/xcat-attribute-map";
import type { ImportedCluster } from "./render";
import { findRuns } from "./runs";

/** Attributes Confluent keeps itself rather than the admin: the node's index, deployment progress. */
const KEPT_BY_CONFLUENT = /^(id\.index|deployment\.)/;

/** The value a secret takes in the read cluster: never a real value (Confluent does not give it). */
export const SECRET_PLACEHOLDER = "(set on Confluent, not shown)";

/** What a Confluent import read, what it left out, and its notes. */
export interface ConfluentRead {
  readonly cluster: ImportedCluster;
  readonly left: string[];
}

export interface ConfluentImportScope {
  readonly noderange?: string | undefined;
  readonly excluded: (name: string) => boolean;
  readonly kinds: ReadonlySet<string>;
}

/**
 * One object's own attributes in xCAT's names; what cannot be written in the program goes to
 * `left` with the reason.
 */
export function ownXcatAttributes(
  what: string,
  reported: NodeAttributes,
  left: string[],
): { attributes: Record<string, string>; groups: string[] } {
  const attributes: Record<string, string> = {};
  let groups: string[] = [];
  const unnamed: string[] = [];
  for (const [name, attribute] of reported) {
    if (name === "nodes") continue; // a group's members: the nodes' groups say it
    if (name === "groups") {
      const value = attribute.value;
      groups = Array.isArray(value) ? value.map(String).filter((g) => g !== CONFLUENT_EVERYTHING_GROUP) : [];
      continue;
    }
    if (attribute.inheritedfrom !== undefined || KEPT_BY_CONFLUENT.test(name)) continue;
    const mapping = mappingOfConfluent(name);
    if (!mapping) {
      if (
        attribute.isset === true ||
        (attribute.value ?? null) !== null ||
        attribute.expression !== undefined
      )
        unnamed.push(name);
      continue;
    }
    if (mapping.writeOnly) {
      if (attribute.isset === true) attributes[mapping.xcat] = SECRET_PLACEHOLDER;
      continue;
    }
    if (attribute.expression !== undefined) {
      const regex = xcatRegexOfExpression(attribute.expression);
      if (regex === undefined) {
        left.push(
          `${what}: ${name} holds the expression '${attribute.expression}', which no xCAT |pattern|replacement| ` +
            "value translates to (kept on the server; not managed by the program)",
        );
      } else {
        attributes[mapping.xcat] = regex;
      }
      continue;
    }
    const value = attribute.value;
    if (value === undefined || value === null || value === "" || Array.isArray(value)) continue;
    attributes[mapping.xcat] = xcatValueOf(mapping, String(value));
  }
  if (unnamed.length > 0) {
    left.push(
      `${what}: ${unnamed.join(", ")} (no attribute of the program maps to ${unnamed.length === 1 ? "it" : "them"}; ` +
        "kept on the server as they are)",
    );
  }
  return { attributes, groups };
}

export async function readConfluentCluster(
  client: ConfluentClient,
  scope: ConfluentImportScope,
  progress: (text: string) => void,
): Promise<ConfluentRead> {
  const left: string[] = [];
  progress("reading groups…");
  const groupNames = (await client.groups.list()).filter((name) => !scope.excluded(name));
  const groups: [string, Record<string, string>][] = [];
  for (const name of groupNames) {
    const reported = await client.groups.get(name);
    const { attributes } = ownXcatAttributes(`group '${name}'`, reported, left);
    if (name === CONFLUENT_EVERYTHING_GROUP) {
      // xCAT's `all`; a Group named all is refused on Confluent (it holds server-wide defaults).
      if (Object.keys(attributes).length > 0)
        left.push(
          `group '${name}' (xCAT's all): ${Object.keys(attributes).join(", ")}: server-wide defaults, which a ` +
            "Group resource cannot hold on Confluent (kept on the server as they are)",
        );
      continue;
    }
    groups.push([name, attributes]);
  }
  progress(`  ${groups.length} groups`);
  progress("reading nodes…");
  const range = scope.noderange ?? CONFLUENT_EVERYTHING_GROUP;
  const names = scope.kinds.has("nodes") ? await client.nodes.list(range) : [];
  const reported = names.length > 0 ? await client.nodes.getMany([range]) : new Map<string, NodeAttributes>();
  const entries = [...reported]
    .filter(([name]) => !scope.excluded(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, attributes]) => {
      const own = ownXcatAttributes(`node '${name}'`, attributes, left);
      // Every Confluent node is in `everything`, xCAT's `all`, which Confluent keeps last.
      return { name, groups: [...own.groups, XCAT_ALL_GROUP], attributes: own.attributes };
    });
  progress(`  ${entries.length} nodes`);
  const used = new Set(entries.flatMap((entry) => entry.groups));
  const importedGroups = groups.filter(
    ([name, attributes]) =>
      scope.kinds.has("groups") &&
      Object.keys(attributes).length > 0 &&
      (scope.noderange === undefined || used.has(name)),
  );
  const { runs, singles } = findRuns(entries);
  return {
    cluster: {
      groups: importedGroups,
      osimages: [],
      networks: [],
      policies: [],
      site: [],
      tableRows: [],
      runs,
      singles,
      backend: "confluent",
      askedAttributes: XCAT_TO_CONFLUENT.filter((mapping) => mapping.writeOnly).map(
        (mapping) => mapping.xcat,
      ),
    },
    left,
  };
}
