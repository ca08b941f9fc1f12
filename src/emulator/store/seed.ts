/**
 * The tables of a freshly installed management node (xcatconfig): the account, the default
 * policies (xcat-behavior.md §4.4), the stock site keys (§5.6) and the xcatdefaults postscripts
 * (§5.2). Values are those of a small lab MN at 10.0.0.1.
 *
 * What xcatconfig writes: src/contract/fresh-management-node.ts (per release). Machine-dependent values are placeholders of the
 * simulated MN: domain, master and nameservers (its address), forwarders (its resolv.conf),
 * timezone, and dhcpomapialgorithm, which xcatconfig sets on a new install of EL 9 or later and
 * Ubuntu 20.04 or later (OmapiPolicy.pm:67-83); the simulated MN is EL 9.
 */
import {
  FROM_THE_MACHINE,
  XCATCONFIG_POLICIES,
  XCATCONFIG_POSTSCRIPTS,
  XCATCONFIG_SITE,
  xcatconfigSiteKeys,
} from "../../contract/fresh-management-node";
import type { Database } from "./database";

/** Short host name of the simulated management node (xcatdsource, policy 1.2). */
export const MN_HOSTNAME = "xcatmn";

/** The simulated MN's values for what xcatconfig takes from the machine (EL 9 at 10.0.0.1). */
const MACHINE_SITE_VALUES: Readonly<Record<string, string>> = {
  domain: "cluster.local",
  master: "10.0.0.1",
  nameservers: "10.0.0.1",
  forwarders: "10.0.0.254",
  timezone: "UTC",
  dhcpomapialgorithm: "hmac-sha256",
};

/** The site rows of a fresh MN of `version`: keys with an empty value get no row. */
export function freshSite(version?: string): [string, string][] {
  return xcatconfigSiteKeys(version)
    .map((key): [string, string] => {
      const value = XCATCONFIG_SITE[key];
      return [
        key,
        value === FROM_THE_MACHINE || value === undefined ? (MACHINE_SITE_VALUES[key] ?? "") : value,
      ];
    })
    .filter(([, value]) => value !== "");
}

/** Fills an empty database; a database that was seeded before (a data file) is left alone. */
export function seedManagementNode(
  db: Database,
  account: { user: string; password: string },
  version?: string,
): void {
  if (db.first("_emu_meta", { key: "seeded" })) {
    // Keep the configured account usable with an existing data file.
    db.upsert("passwd", { key: "xcat", username: account.user }, { password: account.password });
    return;
  }
  db.transaction(() => {
    db.insert("passwd", { key: "xcat", username: account.user, password: account.password });
    for (const [priority, values] of Object.entries(XCATCONFIG_POLICIES)) {
      const row = Object.fromEntries(
        Object.entries(values).map(([k, v]) => [k, v === FROM_THE_MACHINE ? MN_HOSTNAME : v]),
      );
      db.insert("policy", { priority, ...row });
    }
    if (account.user !== "root") {
      // The documented recipe for a REST user: mkdef -t policy 6 name=<user> rule=allow.
      db.insert("policy", { priority: "6", name: account.user, rule: "allow" });
    }
    for (const [key, value] of freshSite(version)) db.insert("site", { key, value });
    for (const [node, columns] of Object.entries(XCATCONFIG_POSTSCRIPTS)) {
      db.insert("postscripts", { node, ...columns });
    }
    db.insert("_emu_meta", { key: "seeded", value: "1" });
  });
}
