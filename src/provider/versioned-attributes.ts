/**
 * Attributes that only some xCAT releases know (contract/xcat-versions.ts), and how a preview
 * says that the management node's release does not know one.
 */
import { type ObjectType, objectAttributes } from "../contract/schema";
import { VERSIONED_ATTRIBUTES, type VersionedAttribute } from "../contract/xcat-versions";

/** The entry of an attribute that some releases lack, or undefined for one every release knows. */
export function versionedAttribute(type: ObjectType, attribute: string): VersionedAttribute | undefined {
  return VERSIONED_ATTRIBUTES.find((entry) => entry.type === type && entry.attribute === attribute);
}

/**
 * Why a preview refuses the attribute: the release that brought or removed it, and the source.
 *
 * @example
 * unknownOnServerReason("OS image", versionedAttribute("osimage", "nfsrootopts")!)
 * // "the management node's xCAT does not know the OS image attribute 'nfsrootopts': it came with xCAT 2.19 ..."
 */
export function unknownOnServerReason(what: string, entry: VersionedAttribute): string {
  const when =
    entry.since !== undefined
      ? `it came with xCAT ${entry.since}, and this management node runs an older release`
      : `xCAT ${entry.until} removed it, and this management node runs that release or a newer one`;
  return (
    `the management node's xCAT does not know the ${what} attribute '${entry.attribute}': ${when} ` +
    `(${entry.source}). Remove it from the program, or upgrade xCAT.`
  );
}

/**
 * Attributes of a node create that xCAT before 2.18 drops without a word: those stored only under
 * an only_if condition (`bmc` needs mgt=ipmi or openbmc) whose condition the request does not
 * decide, so that only the groups it names can. Before 2.18.0 setobjdefs checks conditions
 * against the request and the stored node alone, and silences the error when a group named in
 * the request would satisfy it (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:953-959, 1035, 1214-1229;
 * docs/xcat-versions.md difference 4). Once the node exists, its groups' values count through
 * inheritance on every release, so these are written by a second request.
 *
 * @example
 * attributesDecidedByGroups({ groups: "ipmi-racks", bmc: "10.1.0.1", ip: "10.0.0.1" }) // ["bmc"]
 */
export function attributesDecidedByGroups(desired: Readonly<Record<string, string>>): string[] {
  if (!desired.groups) return [];
  const mappingsOf = objectAttributes("node");
  return Object.keys(desired).filter((attribute) => {
    const mappings = mappingsOf.get(attribute) ?? [];
    if (mappings.length === 0 || mappings.some((m) => m.onlyIf === undefined)) return false;
    return mappings.every((m) => m.onlyIf !== undefined && !desired[m.onlyIf.attribute]);
  });
}

/**
 * A node attribute only releases before 2.18.0 know (2.17.0:perl-xCAT/xCAT/Schema.pm:2801-2805):
 * whether the management node knows it tells whether it drops the attributes above.
 */
export const KNOWN_ONLY_BEFORE_2_18 = "dockerhost";
