/**
 * What a fresh management node holds, by value (src/contract/fresh-management-node.ts: what
 * `xcatconfig -d` writes). Import leaves out only what still holds that value: anything the admin
 * changed is theirs and is imported. A value xcatconfig takes from the machine (the host's
 * domain, address, time zone, resolvers; the management node's name in policy 1.2) is the
 * admin's choice of machine, not a default, and is always imported.
 */

import {
  FROM_THE_MACHINE,
  type FreshValue,
  XCATCONFIG_POLICIES,
  XCATCONFIG_POSTSCRIPTS,
  XCATCONFIG_SITE,
} from "../../contract/fresh-management-node";

export { XCATCONFIG_POSTSCRIPTS } from "../../contract/fresh-management-node";

/** True when a site key holds the value a fresh management node has. */
export function isDefaultSiteValue(key: string, value: string): boolean {
  const fresh = XCATCONFIG_SITE[key];
  return typeof fresh === "string" && fresh === value;
}

/** True when a policy row is exactly one xcatconfig creates (a value from the machine is the admin's). */
export function isDefaultPolicy(priority: string, attributes: Readonly<Record<string, string>>): boolean {
  const fresh = XCATCONFIG_POLICIES[priority];
  return fresh !== undefined && sameValues(fresh, attributes);
}

/** True when a postscripts row is exactly one xcatconfig creates. */
export function isDefaultPostscripts(node: string, columns: Readonly<Record<string, string>>): boolean {
  const fresh = XCATCONFIG_POSTSCRIPTS[node];
  return fresh !== undefined && sameValues(fresh, columns);
}

function sameValues(
  fresh: Readonly<Record<string, FreshValue>>,
  actual: Readonly<Record<string, string>>,
): boolean {
  const set = Object.entries(actual).filter(([, value]) => value !== "");
  const expected = Object.entries(fresh).filter(([, value]) => value !== "");
  if (set.length !== expected.length) return false;
  return expected.every(([key, value]) => typeof value === "string" && actual[key] === value);
}

/** Group attributes xCAT gives every group itself: lsdef shows `grouptype=static` for a static group. */
export function isDefaultGroupAttribute(attribute: string, value: string): boolean {
  return attribute === "grouptype" && value === "static";
}

/**
 * True when a policy row is one xcatconfig creates, whatever it took from the machine (policy 1.2
 * names the management node): what a fresh management node holds, so not an object someone made.
 */
export function isFreshPolicyRow(priority: string, attributes: Readonly<Record<string, string>>): boolean {
  const fresh = XCATCONFIG_POLICIES[priority];
  if (fresh === undefined) return false;
  const set = Object.keys(attributes).filter((key) => attributes[key] !== "");
  const expected = Object.keys(fresh).filter((key) => fresh[key] !== "");
  if (set.length !== expected.length) return false;
  return expected.every((key) => {
    const value = fresh[key];
    return value === FROM_THE_MACHINE ? (attributes[key] ?? "") !== "" : attributes[key] === value;
  });
}
