/**
 * What xCAT reports for an object right after an update, when that is known without reading it:
 * the rule that lets an image roll (a new `provmethod` on every node) cost one merged PUT per
 * round and no read-back GET per node.
 *
 * Why it is safe: lsdef derives every attribute from its own table column (DBobjUtils.pm
 * getobjdefs 466-590), and for nodes a node's own value wins over what its groups supply
 * (Table.pm getNodeAttribs_nosub_returnany 2974-3100; xcat-behavior.md 5.2). So setting a
 * non-empty value of an attribute that lives in a column of its own changes that attribute alone,
 * to exactly the value chdef stored, and leaves every other attribute as it was. The rule answers
 * only then; everything else is read back:
 * - a clear (""): the attribute may then show a group's value;
 * - `groups` (what a node inherits), the only_if condition attributes (`mgt`, `nodetype`,
 *   `imagetype`: where other attributes are read from), attributes stored under a condition or
 *   in a column another attribute shares (`id`/`slotid`, the `passwd.*` ones), and attributes
 *   not keyed by the object alone;
 * - `postscripts`/`postbootscripts` (lsdef prepends the xcatdefaults ones, DBobjUtils ~3845) and
 *   the `nic*` attributes (lsdef shows them per NIC, DBobjectdefs.pm 4158-4240);
 * - values starting with `|` and other per-node templates (`/pattern/replacement/`; expanded per
 *   node by Table.pm transRegexAttrs, see per-node-values.ts) and
 *   values with a line break (chdef's `attr=val` parse fails on them, DBobjectdefs.pm 811);
 * - any update of a group (its values reach its members, and `members` is computed);
 * - an attribute whose recorded value is not the one the resource itself set before: it came
 *   from a group, or from site.hierarchicalattrs, which appends the groups' values to the
 *   node's own (Table.pm 3004-3006, 3066-3068); or someone changed it by hand;
 * - no recorded report at all (state written before `allAttributes` existed).
 * What others change by hand elsewhere on the object shows at the next refresh, as it does
 * after a create. The write itself still goes through the write log, so later reads stay fresh.
 */
import { isPerNodeTemplate } from "../contract/per-node-values";
import { type AttributeMapping, type ObjectType, objectAttributes } from "../contract/schema";
import type { Attributes } from "./types";

/** The update the rule looks at: attribute values as sent on the wire (see `toWireAttributes`). */
export interface UpdateRecord {
  /** The object type, as BATCHED_TYPES names it: "node", "group", "osimage", ... */
  readonly type: string;
  /** What xCAT reported for the object before the update (the resource's recorded outputs). */
  readonly recorded: Readonly<Attributes> | undefined;
  /** The values the caller itself had set before the update, as sent on the wire. */
  readonly previous: Readonly<Record<string, string>>;
  /** The values the update sent. */
  readonly sent: Readonly<Record<string, string>>;
}

/**
 * The attributes xCAT reports after `update`, or `undefined` when they must be read back.
 *
 * @example
 * ```ts
 * knownAfterUpdate({
 *   type: "node",
 *   recorded: { groups: "compute", provmethod: "img-a", arch: "x86_64" },
 *   previous: { provmethod: "img-a" },
 *   sent: { provmethod: "img-b" },
 * }); // { arch: "x86_64", groups: "compute", provmethod: "img-b" }
 * ```
 */
export function knownAfterUpdate(update: UpdateRecord): Attributes | undefined {
  const { type, recorded, previous, sent } = update;
  if (recorded === undefined || !isObjectType(type) || type === "group") return undefined;
  const entries = Object.entries(sent);
  if (entries.length === 0) return undefined;
  const stored: Record<string, string> = {};
  for (const [attribute, value] of entries) {
    // chdef stores the value without its leading whitespace (DBobjectdefs.pm 811), which is how
    // the client sends a literal "0" (" 0").
    const kept = value.trimStart();
    if (kept === "" || kept.startsWith("|") || isPerNodeTemplate(kept) || /[\r\n]/.test(kept))
      return undefined;
    if (!standsAlone(type, attribute)) return undefined;
    const before = recorded[attribute];
    if (before !== undefined && before !== previous[attribute]?.trimStart()) return undefined;
    stored[attribute] = kept;
  }
  const after: Record<string, string> = { ...recorded, ...stored };
  return Object.fromEntries(
    Object.keys(after)
      .sort(byString)
      .map((key) => [key, after[key] as string]),
  );
}

/** Attributes whose value decides where other attributes of `type` are stored (xCAT's only_if). */
export function conditionAttributes(type: string): readonly string[] {
  return placementOf(type).conditions;
}

/** Whether setting `attribute` changes that attribute alone, to the value stored (see the file comment). */
function standsAlone(type: ObjectType, attribute: string): boolean {
  return placementOf(type).alone.has(attribute);
}

interface Placement {
  readonly conditions: readonly string[];
  readonly alone: ReadonlySet<string>;
}

const PLACEMENTS = new Map<string, Placement>();

/** Attributes lsdef does not show as stored: lists it extends, per-NIC expansions, membership. */
const SHOWN_OTHERWISE = /^(groups|members|postscripts|postbootscripts|nic.*)$/;

function placementOf(type: string): Placement {
  let known = PLACEMENTS.get(type);
  if (known !== undefined) return known;
  const conditions = new Set<string>();
  const alone = new Set<string>();
  if (isObjectType(type)) {
    const attributes = objectAttributes(type);
    const users = new Map<string, Set<string>>();
    for (const mappings of attributes.values()) {
      for (const mapping of mappings) {
        if (mapping.onlyIf !== undefined) conditions.add(mapping.onlyIf.attribute);
        const column = `${mapping.table}.${mapping.column}`;
        const set = users.get(column) ?? new Set<string>();
        set.add(mapping.attribute);
        users.set(column, set);
      }
    }
    for (const [attribute, mappings] of attributes) {
      const [only, ...more] = mappings;
      if (only === undefined || more.length > 0 || only.onlyIf !== undefined) continue;
      if (conditions.has(attribute) || SHOWN_OTHERWISE.test(attribute) || notOwnColumn(only)) continue;
      if ((users.get(`${only.table}.${only.column}`)?.size ?? 0) > 1) continue;
      alone.add(attribute);
    }
  }
  known = { conditions: [...conditions].sort(byString), alone };
  PLACEMENTS.set(type, known);
  return known;
}

/**
 * Whether the mapping is not a plain column of the object's own row: the object's key itself, or
 * a row found by other keys (`ppcdirect.hcp=<obj attr> node::ppcdirect.username=HMC`).
 */
function notOwnColumn(mapping: AttributeMapping): boolean {
  const keyed = /^([a-z0-9_]+)\.([a-z0-9_]+)=<obj attr> \S+$/i.exec(mapping.lookupKey);
  return keyed === null || keyed[1] !== mapping.table || keyed[2] === mapping.column;
}

const isObjectType = (type: string): type is ObjectType =>
  ["node", "group", "osimage", "network", "policy"].includes(type);

function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
