/**
 * The shapes of Confluent's answers the client relies on, as zod schemas, and the one function
 * that folds a noderange answer into one record per node. Shapes are Confluent 3.15.6's
 * (confluent_server/confluent/messages.py, httpapi.py), as recorded against a real server
 * (/work/shared/real-confluent.md items 1, 7, 8, 10, 11, 13, 14, 16).
 */
import { z } from "zod";

/**
 * One attribute as Confluent reports it: a plain `value`, `isset` for a secret (never its value),
 * `inheritedfrom` when a group supplies it, `expression` for a value computed per node (with
 * `broken` when it cannot be), or nothing but null.
 */
export const ReportedAttribute = z.looseObject({
  value: z.unknown().optional(),
  isset: z.boolean().optional(),
  inheritedfrom: z.string().optional(),
  expression: z.string().optional(),
  broken: z.string().optional(),
});
export type ReportedAttribute = z.infer<typeof ReportedAttribute>;

/** Every JSON answer is an object; links and per-node data are read from it. */
export const AnswerBody = z.looseObject({
  _links: z.unknown().optional(),
  databynode: z.unknown().optional(),
  error: z.string().optional(),
});

/** `{"error": "<Category> - <detail>"}` (httpapi.py, real-confluent.md item 3). */
export const ErrorBody = z.looseObject({ error: z.string() });

/** A per-node failure inside a 200 noderange answer (item 14). */
export const NodeFailure = z.looseObject({ error: z.string(), errorcode: z.number().optional() });

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
    // `groups` comes as {"value": [...]}; a group's `nodes` as a bare list (item 8).
    attributes.set(name, Array.isArray(value) ? { value } : ReportedAttribute.parse(value ?? {}));
  }
  return attributes;
}

/**
 * A collection (`/nodes/`, `/nodegroups/`, `/deployment/profiles/`) lists its members as
 * `_links.item`, a list of `{"href": "<name>/"}` (httpapi.py 3.15.6 lines 1176-1192, item 16).
 */
export const CollectionBody = z.looseObject({
  _links: z.looseObject({ item: z.array(z.looseObject({ href: z.string() })).optional() }).optional(),
});

/** The member names of a collection answer. */
export function collectionNames(body: unknown): string[] {
  const items = CollectionBody.parse(body)._links?.item ?? [];
  return items.map((item) => item.href.replace(/\/$/, ""));
}
