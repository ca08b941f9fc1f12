/**
 * The xCAT releases in the field and what their REST service does differently, for the client,
 * the provider and the emulator (docs/xcat-versions.md lists every difference with its source
 * lines in xcat2/xcat-core; the lines cited here are at the tag named).
 */
import type { ObjectType } from "./schema";

/** The releases the emulator can be and the provider knows; the last is the newest. */
export const XCAT_VERSIONS = ["2.16.5", "2.17.0", "2.18.2", "2.19"] as const;
export type XcatVersion = (typeof XCAT_VERSIONS)[number];
export const NEWEST_XCAT_VERSION: XcatVersion = "2.19";

/** Whether `text` names a release of {@link XCAT_VERSIONS}. */
export function isXcatVersion(text: string): text is XcatVersion {
  return (XCAT_VERSIONS as readonly string[]).includes(text);
}

/** Compares dotted release numbers ("2.19" sorts after "2.18.2"). */
export function compareVersions(a: string, b: string): number {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** How one release behaves where releases differ. */
export interface VersionBehaviour {
  /**
   * xcatws.cgi `defhdl` passes an empty body value as `attr=` (which clears it) from 2.17.0
   * (2.17.0:xCAT-server/xCAT-wsapi/xcatws.cgi:2096, commit 884d9d8a1); up to 2.16.5 it drops
   * the attribute (`push @args, "$k=$paramhash->{$k}" if $paramhash->{$k};`,
   * 2.16.5:xCAT-server/xCAT-wsapi/xcatws.cgi:2096), so a clear sent as "" does nothing.
   */
  readonly objectBodyKeepsEmptyValues: boolean;
  /**
   * From 2.18.0 (commit 2ae97c2ac) an object whose only_if condition fails is not written at all
   * (2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:962-978, 1270-1278). Before, setobjdefs reported the
   * failed condition and still wrote the object's other attributes
   * (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1214-1236: the error is printed, `%allupdates` is kept
   * and written). Their check also ignored what the groups named in the request hold, except to
   * silence the error: such an attribute was dropped without a word (1035, 1214-1229).
   */
  readonly failedConditionWritesNothing: boolean;
}

/** The behaviour of `version`. */
export function versionBehaviour(version: XcatVersion): VersionBehaviour {
  return {
    objectBodyKeepsEmptyValues: compareVersions(version, "2.17.0") >= 0,
    failedConditionWritesNothing: compareVersions(version, "2.18.0") >= 0,
  };
}

/**
 * Object attributes that only some releases know (Schema.pm `defspec`). The generated schema
 * (xcat-schema.generated.ts) is master's; these are where older releases differ from it.
 */
export interface VersionedAttribute {
  readonly type: ObjectType;
  readonly attribute: string;
  /** First release that knows it (absent: every release up to `until`). */
  readonly since?: string;
  /** First release that no longer knows it. */
  readonly until?: string;
  /** Where the change is, for messages and docs. */
  readonly source: string;
}

export const VERSIONED_ATTRIBUTES: readonly VersionedAttribute[] = [
  {
    type: "osimage",
    attribute: "nfsrootopts",
    since: "2.19",
    source: "master:perl-xCAT/xCAT/Schema.pm:776,3221-3225 (osimage.nfsrootopts)",
  },
  ...["dockerhost", "dockercpus", "dockermemory", "dockerflag", "dockernics"].map((attribute) => ({
    type: "node" as const,
    attribute,
    until: "2.18.0",
    source: "2.17.0:perl-xCAT/xCAT/Schema.pm:2794-2825 (docker attributes, removed in 2.18.0)",
  })),
];

/** Whether `version` knows an attribute listed in {@link VERSIONED_ATTRIBUTES} (others: yes). */
export function attributeKnownIn(version: string, type: ObjectType, attribute: string): boolean {
  const entry = VERSIONED_ATTRIBUTES.find((a) => a.type === type && a.attribute === attribute);
  if (entry === undefined) return true;
  if (entry.since !== undefined && compareVersions(version, entry.since) < 0) return false;
  if (entry.until !== undefined && compareVersions(version, entry.until) >= 0) return false;
  return true;
}
