/**
 * xCAT's data model: its tables with their key columns, and how each attribute of an object type
 * maps to a table column (Schema.pm's `defspec`). Shared by the emulator, which stores tables and
 * derives objects from them, and by the provider, which validates attribute names.
 *
 * The indexes are built once per process, on first use.
 */
import { XCAT_OBJECT_ATTRIBUTES, XCAT_TABLES } from "./xcat-schema.generated";

/** The object types of xCAT's object layer (lsdef -t ...). */
export type ObjectType = "node" | "group" | "osimage" | "network" | "policy" | "site" | "route";

/** Every {@link ObjectType}, in this order. */
export const OBJECT_TYPES: readonly ObjectType[] = [
  "node",
  "group",
  "osimage",
  "network",
  "policy",
  "site",
  "route",
];

export interface TableSchema {
  readonly name: string;
  /** Key columns, in the order xCAT declares them. */
  readonly keys: readonly string[];
  /** All columns, including the key columns, `comments` and `disable`. */
  readonly columns: readonly string[];
}

/** One way an attribute is stored; an attribute may have several, chosen by `onlyIf`. */
export interface AttributeMapping {
  readonly objectType: ObjectType;
  readonly attribute: string;
  readonly table: string;
  readonly column: string;
  /** Schema.pm's lookup key, e.g. `nodelist.node=<obj attr> node` or `site.key=master`. */
  readonly lookupKey: string;
  /** The condition under which this mapping applies, e.g. `{ attribute: "mgt", value: "ipmi" }`. */
  readonly onlyIf?: { readonly attribute: string; readonly value: string };
  /** Where Schema.pm declares this mapping among all of the type's (chdef walks them in this order). */
  readonly position: number;
}

interface SchemaIndex {
  readonly tables: ReadonlyMap<string, TableSchema>;
  readonly attributes: ReadonlyMap<ObjectType, ReadonlyMap<string, readonly AttributeMapping[]>>;
}

let index: SchemaIndex | undefined;

function buildIndex(): SchemaIndex {
  const tables = new Map<string, TableSchema>();
  for (const [name, table] of Object.entries(XCAT_TABLES)) {
    tables.set(name, { name, keys: table.keys, columns: table.columns });
  }
  const attributes = new Map<ObjectType, Map<string, AttributeMapping[]>>();
  for (const [
    position,
    [objectType, attribute, table, column, lookupKey, onlyIf],
  ] of XCAT_OBJECT_ATTRIBUTES.entries()) {
    const type = objectType as ObjectType;
    const [conditionAttribute, conditionValue] = onlyIf.split("=");
    const mapping: AttributeMapping = {
      objectType: type,
      attribute,
      table,
      column,
      lookupKey,
      position,
      ...(conditionAttribute && conditionValue !== undefined
        ? { onlyIf: { attribute: conditionAttribute, value: conditionValue } }
        : {}),
    };
    const byName = attributes.get(type) ?? new Map<string, AttributeMapping[]>();
    attributes.set(type, byName);
    const existing = byName.get(attribute);
    if (existing) existing.push(mapping);
    else byName.set(attribute, [mapping]);
  }
  return { tables, attributes };
}

function schemaIndex(): SchemaIndex {
  index ??= buildIndex();
  return index;
}

/** The table's schema, or undefined when xCAT has no such table. */
export function tableSchema(name: string): TableSchema | undefined {
  return schemaIndex().tables.get(name);
}

/** Names of all xCAT tables, sorted. */
export function tableNames(): readonly string[] {
  return [...schemaIndex().tables.keys()].sort();
}

/** Every mapping of every attribute of an object type, keyed by attribute name. */
export function objectAttributes(objectType: ObjectType): ReadonlyMap<string, readonly AttributeMapping[]> {
  return schemaIndex().attributes.get(objectType) ?? new Map();
}

/** Whether xCAT knows the attribute for the object type (site attributes are free-form). */
export function isKnownAttribute(objectType: ObjectType, attribute: string): boolean {
  if (objectType === "site") return true;
  return objectAttributes(objectType).has(attribute);
}
