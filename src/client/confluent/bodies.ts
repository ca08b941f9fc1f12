/**
 * The shapes of Confluent's answers the client relies on, as zod schemas, and the one function
 * that folds a noderange answer into one record per node. Shapes are Confluent 3.15.6's
 * (confluent_server/confluent/messages.py, httpapi.py), as recorded against a real server
 * (/work/shared/real-confluent.md items 1, 7, 8, 10, 11, 13, 14, 16).
 */
import { z } from "zod";
import {
  type ConfluentAttributeValue,
  confluentAttributeEntrySchema,
  confluentCollectionBodySchema,
} from "../../contract/confluent/bodies";

export {
  confluentErrorBodySchema as ErrorBody,
  confluentNodeErrorSchema as NodeFailure,
} from "../../contract/confluent/bodies";

/**
 * One attribute as Confluent reports it (contract/confluent/bodies.ts): a plain `value`, `isset`
 * for a secret (never its value), `inheritedfrom` when a group supplies it, `expression` for a
 * value computed per node (with `broken` when it cannot be).
 */
export type ReportedAttribute = ConfluentAttributeValue;

/** Every JSON answer is an object; per-node data sits in `databynode`. */
const AnswerBody = z.looseObject({ databynode: z.unknown().optional() });

/**
 * The per-node part of a noderange answer as one record per node: Confluent sends `databynode`
 * as a list of one-key objects (one per node per attribute, item 11) or as one object; both fold
 * into node → merged fields.
 */
export function byNode(body: unknown): Map<string, Record<string, unknown>> {
  const parsed = AnswerBody.parse(body);
  const nodes = new Map<string, Record<string, unknown>>();
  const entries = Array.isArray(parsed.databynode) ? parsed.databynode : [parsed.databynode ?? {}];
  for (const entry of entries) {
    for (const [node, fields] of Object.entries(z.record(z.string(), z.unknown()).parse(entry))) {
      const merged = nodes.get(node) ?? {};
      Object.assign(merged, z.record(z.string(), z.unknown()).parse(fields));
      nodes.set(node, merged);
    }
  }
  return nodes;
}

/** The attribute fields of a flat answer (`/nodes/<n>/attributes/current`), without `_links`. */
export function attributesOf(fields: Readonly<Record<string, unknown>>): Map<string, ReportedAttribute> {
  const attributes = new Map<string, ReportedAttribute>();
  for (const [name, value] of Object.entries(fields)) {
    if (name === "_links" || name === "error" || name === "errorcode") continue;
    // `groups` and a group's `nodes` come as bare lists (item 8); the rest as objects.
    const entry = confluentAttributeEntrySchema.parse(value ?? {});
    attributes.set(name, Array.isArray(entry) ? { value: entry } : entry);
  }
  return attributes;
}

/** The member names of a collection answer (`_links.item`, httpapi.py 3.15.6 lines 1176-1192). */
export function collectionNames(body: unknown): string[] {
  const items = confluentCollectionBodySchema.parse(body)._links.item ?? [];
  return items.map((item) => item.href.replace(/\/$/, ""));
}
