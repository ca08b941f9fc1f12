/**
 * Suspicious data an import finds and reports without changing it: the program keeps every value
 * as the server holds it (so its first `up` changes nothing) and the admin reads what looks wrong.
 * - addresses two nodes share: `ip`, `bmc`, and each entry of `mac` (xCAT's `mac` holds several,
 *   separated by `|`, each optionally followed by `!hostname`; compared case-blind);
 * - groups a node names that no group definition holds but that look like a typo of a defined one;
 * - values that look like mistyped IPv4 addresses (a letter O or l among digits, an octet over 255)
 *   and interface names that look like misspelt common ones (`eht0`);
 * - values the provider's own check refuses (they would fail `pulumi preview` as imported).
 */

import type { Attributes } from "../../contract/node-inheritance";
import { closestName, editDistance } from "../../provider/edit-distance";
import { globalConfAttributeSpec } from "../../provider/resources/global-conf-attribute";
import { groupSpec } from "../../provider/resources/group";
import { networkSpec } from "../../provider/resources/network";
import { nodeSpec } from "../../provider/resources/node";
import { osimageSpec } from "../../provider/resources/osimage";
import { policySpec } from "../../provider/resources/policy";
import type { CheckOutcome } from "../../provider/spec";
import type { ImportedCluster } from "./render";
import { type NodeEntry, runName, valueAt } from "./runs";

/** One finding, about one or more objects. */
export interface Finding {
  readonly kind:
    | "duplicate"
    | "undefined-group"
    | "mistyped-address"
    | "mistyped-interface"
    | "invalid"
    | "not-booted";
  /** What is wrong, naming the objects, for the output and the README. */
  readonly text: string;
}

/** Attributes whose values must differ from node to node. */
const UNIQUE_ATTRIBUTES = ["ip", "bmc"] as const;

/** The MAC addresses in an xCAT `mac` value, lower-cased. */
export function macEntries(value: string): string[] {
  return value
    .split("|")
    .map((entry) => (entry.split("!")[0] ?? "").trim().toLowerCase())
    .filter((entry) => entry !== "");
}

/** Nodes that share an ip, a bmc or a MAC, as lsdef reports them (inherited values expanded). */
export function duplicateAddresses(nodes: ReadonlyMap<string, Attributes>): Finding[] {
  const findings: Finding[] = [];
  const report = (attribute: string, owners: Map<string, string[]>) => {
    for (const [value, names] of owners) {
      if (names.length > 1) {
        findings.push({ kind: "duplicate", text: `duplicate ${attribute} ${value}: ${nameList(names)}` });
      }
    }
  };
  for (const attribute of UNIQUE_ATTRIBUTES) {
    const owners = new Map<string, string[]>();
    for (const [name, attributes] of nodes) {
      const value = attributes[attribute];
      if (value === undefined || value === "") continue;
      owners.set(value, [...(owners.get(value) ?? []), name]);
    }
    report(attribute, owners);
  }
  const macs = new Map<string, string[]>();
  for (const [name, attributes] of nodes) {
    for (const mac of new Set(macEntries(attributes.mac ?? "")))
      macs.set(mac, [...(macs.get(mac) ?? []), name]);
  }
  report("mac", macs);
  return findings;
}

/**
 * Groups nodes name that are defined nowhere but look like a typo of a defined one (with its
 * name). A group without a definition is ordinary in xCAT: a plain tag (`all`, `rack01`) needs no
 * nodegroup row and inherits nothing, so only the near-misses (`rack1` beside `rack01`) are
 * worth an admin's look.
 */
export function undefinedGroups(
  nodes: ReadonlyMap<string, readonly string[]>,
  defined: ReadonlySet<string>,
): Finding[] {
  const users = new Map<string, string[]>();
  for (const [node, groups] of nodes) {
    for (const group of groups) {
      if (!defined.has(group)) users.set(group, [...(users.get(group) ?? []), node]);
    }
  }
  return [...users].flatMap(([group, names]) => {
    const closest = closestName(group, defined);
    if (closest === undefined) return [];
    return [
      {
        kind: "undefined-group" as const,
        text: `group '${group}' is named by ${nameList(names)} but defined nowhere (did you mean '${closest}'?)`,
      },
    ];
  });
}

/** Names for a message: all of a few, else the first ones and how many. */
function nameList(names: readonly string[]): string {
  const shown = 6;
  return names.length <= shown
    ? names.join(", ")
    : `${names.slice(0, shown).join(", ")}, … (${names.length} nodes)`;
}

/** Interface names in common use: eth0, ens3, enp1s0, eno1, em1, ib0, bond0, p1p1, hsn0, mac (xCAT: "use the MAC"). */
const INTERFACE_NAME = /^(eth\d+|en[a-z0-9]+|em\d+|ib\d+|bond\d+|p\d+p\d+|hsn\d+|mac)$/;
/** The attributes that name a node's network interface. */
const INTERFACE_ATTRIBUTES = ["installnic", "primarynic"];

/** Interface names that are one slip away from a common one (eht0 for eth0). */
export function mistypedInterfaces(objects: ReadonlyMap<string, Attributes>): Finding[] {
  const findings: Finding[] = [];
  for (const [name, attributes] of objects) {
    for (const attribute of INTERFACE_ATTRIBUTES) {
      const value = attributes[attribute];
      const letters = /^([a-z]+)\d+$/.exec(value ?? "")?.[1];
      if (value === undefined || letters === undefined || INTERFACE_NAME.test(value)) continue;
      if (["eth", "ens", "enp", "eno", "bond"].some((common) => editDistance(letters, common, 3) <= 2)) {
        findings.push({
          kind: "mistyped-interface",
          text: `${name}: ${attribute}=${value} does not look like an interface name (eth0?)`,
        });
      }
    }
  }
  return findings;
}

/**
 * True when a value has the shape of a dotted IPv4 address but is not one: an octet holding a
 * letter that is easily typed for a digit (O, o, l, I) or a number over 255. A host name has
 * letters in a label of its own shape and is not taken for an address.
 */
export function looksLikeMistypedIpv4(value: string): boolean {
  const octets = value.split(".");
  if (octets.length !== 4 || !octets.every((octet) => /^[\dOoIl]{1,3}$/.test(octet))) return false;
  if (!octets.some((octet) => /\d/.test(octet))) return false;
  return octets.some((octet) => /[OoIl]/.test(octet) || Number(octet) > 255);
}

/** Values of any object that look like mistyped IPv4 addresses, by object and attribute. */
export function mistypedAddresses(objects: ReadonlyMap<string, Attributes>): Finding[] {
  const findings: Finding[] = [];
  for (const [name, attributes] of objects) {
    for (const [attribute, value] of Object.entries(attributes)) {
      for (const part of value.split(/[,|!]/)) {
        if (looksLikeMistypedIpv4(part)) {
          findings.push({
            kind: "mistyped-address",
            text: `${name}: ${attribute}=${value} looks like a mistyped IP address (${part})`,
          });
        }
      }
    }
  }
  return findings;
}

/** What the provider's own check (run at preview) refuses among the objects the program declares. */
export function validationFindings(cluster: ImportedCluster): Finding[] {
  // The specs' own check, as the provider runs it at preview (it needs no connection).
  const declared: {
    spec: { check(news: Readonly<Record<string, unknown>>): CheckOutcome<unknown> };
    name: string;
    inputs: Record<string, unknown>;
  }[] = [
    ...cluster.groups.map(([name, attributes]) => ({
      spec: groupSpec,
      name,
      inputs: { name, attributes },
    })),
    ...cluster.osimages.map(([name, attributes]) => ({
      spec: osimageSpec,
      name,
      inputs: { name, attributes },
    })),
    ...cluster.networks.map(([name, { net, mask, ...attributes }]) => ({
      spec: networkSpec,
      name,
      inputs: { name, net, mask, attributes },
    })),
    ...cluster.policies.map(([priority, attributes]) => ({
      spec: policySpec,
      name: `policy ${priority}`,
      inputs: { priority, attributes },
    })),
    ...cluster.site.map(([key, value]) => ({
      spec: globalConfAttributeSpec,
      name: `site ${key}`,
      inputs: { name: key, value },
    })),
    ...nodesOf(cluster).map((node) => ({
      spec: nodeSpec,
      name: node.name,
      inputs: { name: node.name, groups: node.groups, attributes: node.attributes },
    })),
  ];
  const findings: Finding[] = [];
  for (const { spec, name, inputs } of declared) {
    const outcome = spec.check({ ...inputs, adopt: true });
    for (const failure of "failures" in outcome ? outcome.failures : []) {
      findings.push({ kind: "invalid", text: `${name}: ${failure.reason} (pulumi preview will refuse it)` });
    }
  }
  return findings;
}

/** Every node the program declares, with the values it gives it. */
function nodesOf(cluster: ImportedCluster): NodeEntry[] {
  const fromRuns = cluster.runs.flatMap((run) =>
    Array.from({ length: run.last - run.first + 1 }, (_, index) => {
      const name = runName(run, run.first + index);
      const own = run.overrides[name];
      const attributes: Record<string, string> = {};
      for (const [attribute, variation] of Object.entries(run.attributes))
        attributes[attribute] = valueAt(variation, index);
      for (const [attribute, value] of Object.entries(own?.attributes ?? {})) {
        if (value === null) delete attributes[attribute];
        else attributes[attribute] = value;
      }
      return { name, groups: own?.groups ?? run.groups, attributes };
    }),
  );
  return [...fromRuns, ...cluster.singles];
}
