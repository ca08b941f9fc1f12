/**
 * Attributes that only some xCAT releases know (contract/xcat-versions.ts), and how a preview
 * says that the management node's release does not know one.
 */
import type { ObjectType } from "../contract/schema";
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
