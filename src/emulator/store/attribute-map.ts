/**
 * The attribute-to-column map of one object type, prepared for the object layer: where each
 * attribute lives (table + row lookup + column) and under which `only_if` condition
 * (Schema.pm defspec via src/contract/schema.ts; xcat-behavior.md §5).
 */
import { type AttributeMapping, type ObjectType, objectAttributes } from "../../contract/schema";

/** How a row of a table is found from an object name: `column = <name>` plus literal columns. */
export interface RowSource {
  /** Stable id `table|lookupKey`. */
  readonly id: string;
  readonly table: string;
  /** Column holding the object name (e.g. `node`, `hcp`), or undefined for literal-only lookups (site). */
  readonly nameColumn: string | undefined;
  /** Literal column values, e.g. `{ username: "HMC" }` for ppcdirect, `{ key: "master" }` for site. */
  readonly literals: Readonly<Record<string, string>>;
}

export interface ResolvedMapping extends AttributeMapping {
  readonly source: RowSource;
}

export interface TypeMap {
  readonly type: ObjectType;
  /** The attribute that names the object (node, groupname, imagename, netname, priority). */
  readonly keyAttribute: string;
  readonly attributes: ReadonlyMap<string, readonly ResolvedMapping[]>;
  readonly sources: readonly RowSource[];
}

const KEY_ATTRIBUTE: Record<ObjectType, string> = {
  node: "node",
  group: "groupname",
  osimage: "imagename",
  network: "netname",
  policy: "priority",
  site: "key",
  route: "routename",
};

function parseLookup(table: string, lookupKey: string): RowSource {
  let nameColumn: string | undefined;
  const literals: Record<string, string> = {};
  for (const part of lookupKey.split("::")) {
    const eq = part.indexOf("=");
    const column = part.slice(0, eq).split(".")[1] ?? "";
    const value = part.slice(eq + 1);
    if (value.startsWith("<obj attr>")) nameColumn = column;
    else literals[column] = value;
  }
  return { id: `${table}|${lookupKey}`, table, nameColumn, literals };
}

const cache = new Map<ObjectType, TypeMap>();

/** The prepared map of an object type (built once per process). */
export function typeMap(type: ObjectType): TypeMap {
  const cached = cache.get(type);
  if (cached) return cached;
  const sources = new Map<string, RowSource>();
  const attributes = new Map<string, ResolvedMapping[]>();
  for (const [name, mappings] of objectAttributes(type)) {
    attributes.set(
      name,
      mappings.map((m) => {
        // The lookup key may name another table than the column (zvm.nodetype via ppc.node): the
        // row is found in the column's table with the lookup's column names.
        const parsed = parseLookup(m.table, m.lookupKey);
        const source = sources.get(parsed.id) ?? parsed;
        sources.set(source.id, source);
        return { ...m, source };
      }),
    );
  }
  const map: TypeMap = {
    type,
    keyAttribute: KEY_ATTRIBUTE[type],
    attributes,
    sources: [...sources.values()],
  };
  cache.set(type, map);
  return map;
}

/**
 * Picks the mapping of an attribute for an object whose (condition) attributes are `context`:
 * the first conditional mapping whose condition holds, else the unconditional one. A mapping
 * conditioned on the attribute itself (nodetype=pdu for `nodetype`) is never chosen, or the value
 * would decide where the value is stored.
 */
export function chooseMapping(
  mappings: readonly ResolvedMapping[],
  context: (attribute: string) => string | undefined,
): ResolvedMapping | undefined {
  let plain: ResolvedMapping | undefined;
  for (const m of mappings) {
    if (!m.onlyIf) {
      plain ??= m;
      continue;
    }
    if (m.onlyIf.attribute === m.attribute) continue;
    if (context(m.onlyIf.attribute) === m.onlyIf.value) return m;
  }
  return plain;
}

/**
 * Where chdef/mkdef store an attribute (DBobjUtils.pm setobjdefs): in every conditional mapping
 * whose condition holds, else in the unconditional one. `holds` answers for the object's
 * condition sources together (see {@link OnlyIfSources}). Empty when nothing applies.
 */
export function writeMappings(
  mappings: readonly ResolvedMapping[],
  holds: (attribute: string, value: string) => boolean,
): ResolvedMapping[] {
  const conditional = mappings.filter(
    (m) => m.onlyIf && m.onlyIf.attribute !== m.attribute && holds(m.onlyIf.attribute, m.onlyIf.value),
  );
  if (conditional.length > 0) return conditional;
  const plain = mappings.find((m) => !m.onlyIf);
  return plain ? [plain] : [];
}

/**
 * The values an only_if condition is checked against when an object is written, each on its own
 * (DBobjUtils.pm `_only_if_value_matches`, 2871-2887): the request, then what the object has now
 * (with what it inherits), then the groups the request puts a node in. A condition holds when
 * any of them matches; so clearing `mgt` and `bmcusername` in one request is allowed, because the
 * stored `mgt` still satisfies the condition of `bmcusername` (issue #16).
 */
export interface OnlyIfSources {
  readonly request: ReadonlyMap<string, string>;
  readonly stored: Readonly<Record<string, string>> | undefined;
  /** Only when the request sets `groups` (DBobjUtils.pm 942-953 reads groups from the request). */
  readonly groups: readonly Readonly<Record<string, string>>[];
}

/** Whether `attribute` matches `value` in any source, as Perl's `/\b\Q$value\E\b/` does. */
export function onlyIfHolds(sources: OnlyIfSources, attribute: string, value: string): boolean {
  const word = new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);
  const matches = (candidate: string | undefined) => candidate !== undefined && word.test(candidate);
  return (
    matches(sources.request.get(attribute)) ||
    matches(sources.stored?.[attribute]) ||
    sources.groups.some((group) => matches(group[attribute]))
  );
}

/** The attributes that decide `only_if` conditions of a type (mgt, nodetype, imagetype...). */
export function conditionAttributes(map: TypeMap): string[] {
  const names = new Set<string>();
  for (const mappings of map.attributes.values()) {
    for (const m of mappings) if (m.onlyIf) names.add(m.onlyIf.attribute);
  }
  return [...names];
}
