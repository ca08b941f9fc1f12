/**
 * Inheritance reduction: what a node declares itself, given what its groups give it. xCAT takes
 * a node's value from its own row first, then from its groups in the order of `groups`
 * (xcat-behavior.md 5.2), expanding a group's regex value for the node's name.
 */
import { expandXcatRegex, isXcatRegex } from "./xcat-regex";

export type Attributes = Readonly<Record<string, string>>;

/** Attributes lsdef reports that are no declarable attribute of the object. */
const NOT_DECLARED = new Set(["objtype", "members", "groups"]);

/** The value a node inherits for `attribute`, or undefined when no group sets it. */
export function inheritedValue(
  node: string,
  groups: readonly string[],
  groupAttributes: ReadonlyMap<string, Attributes>,
  attribute: string,
): string | undefined {
  for (const group of groups) {
    const value = groupAttributes.get(group)?.[attribute];
    if (value === undefined || value === "") continue;
    return isXcatRegex(value) ? expandXcatRegex(value, node) : value;
  }
  return undefined;
}

/**
 * The group-like row xCAT applies after every group: `xcatdefaults` of the postscripts table,
 * which lsdef shows as the node's postscripts when neither it nor a group sets them.
 */
export const XCATDEFAULTS = "xcatdefaults";

/** The node's attributes minus those it inherits unchanged, minus lsdef's bookkeeping. */
export function ownAttributes(
  node: string,
  attributes: Attributes,
  groupAttributes: ReadonlyMap<string, Attributes>,
): Record<string, string> {
  const groups = [...splitGroups(attributes.groups), XCATDEFAULTS];
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (NOT_DECLARED.has(name) || value === "") continue;
    if (inheritedValue(node, groups, groupAttributes, name) === value) continue;
    own[name] = value;
  }
  return own;
}

/** The declarable attributes of a group, osimage or network. */
export function declaredAttributes(attributes: Attributes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (!NOT_DECLARED.has(name) && value !== "") out[name] = value;
  }
  return out;
}

export function splitGroups(groups: string | undefined): string[] {
  return (groups ?? "").split(",").filter((group) => group !== "");
}
