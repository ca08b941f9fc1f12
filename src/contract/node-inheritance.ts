/**
 * Inheritance reduction: what a node declares itself, given what its groups, xCAT's defaults and
 * a deployment give it. lsdef reports a node's merged values; a program that declared them all
 * would pin values that belong elsewhere (a copied node would get the default postscripts twice,
 * a node would hold on to an image a later Deployment replaced). The rules, each from xCAT:
 *
 * - A node's own row wins; otherwise its groups are tried in the order of `groups` and the first
 *   one with a value gives it, a regex value expanded for the node's name (xcat-behavior.md 5.2,
 *   Table.pm getNodeAttribs_nosub_returnany).
 * - lsdef puts the `xcatdefaults` row of the postscripts table in front of a node's postscripts
 *   and postbootscripts, own or inherited: `default,own`, or the default alone (xcat-behavior.md
 *   5.2, DBobjUtils.pm ~3845-3885). The default part is never the node's.
 * - `nodeset <node> osimage=<img>` (what a Deployment sends) writes provmethod, os, arch and
 *   profile onto the node from the image (destiny.pm:294-319, docs/provisioning.md): os, arch and
 *   profile equal to what the node's image gives follow from provmethod and are not declared.
 * - status, appstatus, updatestatus (and their times) and the chain's currstate/currchain are
 *   what xCAT records while it works on a node (GlobalDef.pm, destiny.pm), not configuration.
 */
import { expandXcatRegex, isXcatRegex } from "./xcat-regex";

export type Attributes = Readonly<Record<string, string>>;

/** Attributes lsdef reports that are no declarable attribute of the object. */
const NOT_DECLARED = new Set(["objtype", "members", "groups"]);

/** What xCAT writes while it works on a node (its status, what nodeset set up to boot). */
export const NODE_STATE = new Set([
  "status",
  "statustime",
  "appstatus",
  "appstatustime",
  "updatestatus",
  "updatestatustime",
  "currstate",
  "currchain",
]);

/** The node attributes lsdef prefixes with the xcatdefaults row's value. */
export const DEFAULTED_SCRIPTS = ["postscripts", "postbootscripts"] as const;

/** The node attributes nodeset takes from the image a node's provmethod names, and from where. */
export const FROM_THE_IMAGE: Readonly<Record<string, string>> = {
  os: "osvers",
  arch: "osarch",
  profile: "profile",
};

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
 * The row lsdef puts in front of every node's scripts: `xcatdefaults` of the postscripts table
 * (its postscripts and postbootscripts).
 */
export const XCATDEFAULTS = "xcatdefaults";

/**
 * What of a reported postscripts/postbootscripts value comes after the default part lsdef put in
 * front: the node's own or inherited scripts ("" when there are none).
 *
 * @example withoutDefaultScripts("syslog,remoteshell,custom", "syslog,remoteshell") // "custom"
 */
export function withoutDefaultScripts(reported: string, defaults: string | undefined): string {
  if (defaults === undefined || defaults === "") return reported;
  if (reported === defaults) return "";
  return reported.startsWith(`${defaults},`) ? reported.slice(defaults.length + 1) : reported;
}

/** What else a node's values are reduced against. */
export interface NodeSources {
  /** Each group's declared attributes. */
  readonly groups: ReadonlyMap<string, Attributes>;
  /** The xcatdefaults row (postscripts, postbootscripts). */
  readonly defaults?: Attributes | undefined;
  /** Each OS image's attributes, for what nodeset takes from the node's image. */
  readonly images?: ReadonlyMap<string, Attributes> | undefined;
}

/** The node's attributes minus what it inherits, what xCAT and nodeset put there, and lsdef's bookkeeping. */
export function ownAttributes(
  node: string,
  attributes: Attributes,
  sources: NodeSources,
): Record<string, string> {
  const groups = splitGroups(attributes.groups);
  const image = attributes.provmethod === undefined ? undefined : sources.images?.get(attributes.provmethod);
  const own: Record<string, string> = {};
  for (const [name, reported] of Object.entries(attributes)) {
    if (NOT_DECLARED.has(name) || NODE_STATE.has(name) || reported === "") continue;
    const value = (DEFAULTED_SCRIPTS as readonly string[]).includes(name)
      ? withoutDefaultScripts(reported, sources.defaults?.[name])
      : reported;
    if (value === "") continue;
    if (inheritedValue(node, groups, sources.groups, name) === value) continue;
    const imageColumn = FROM_THE_IMAGE[name];
    if (image !== undefined && imageColumn !== undefined && image[imageColumn] === value) continue;
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
