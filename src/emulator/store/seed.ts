/**
 * The tables of a freshly installed management node (xcatconfig): the account, the default
 * policies (xcat-behavior.md §4.4), the stock site keys (§5.6) and the xcatdefaults postscripts
 * (§5.2). Values are those of a small lab MN at 10.0.0.1.
 *
 * Site keys: xcatconfig:1213-1289 (initDB). Machine-dependent values are placeholders of the
 * simulated MN: domain, master and nameservers (its address), forwarders (its resolv.conf),
 * timezone, and dhcpomapialgorithm, which xcatconfig sets on a new install of EL 9 or later and
 * Ubuntu 20.04 or later (OmapiPolicy.pm:67-83); the simulated MN is EL 9.
 */
import type { Database } from "./database";

/** Short host name of the simulated management node (xcatdsource, policy 1.2). */
export const MN_HOSTNAME = "xcatmn";

export const SITE_DEFAULTS: Readonly<Record<string, string>> = {
  blademaxp: "64",
  cleanupdiskfullxcatpost: "no",
  cleanupxcatpost: "no",
  consoleondemand: "no",
  databaseloc: "/var/lib",
  db2installloc: "/mntdb2",
  dhcpomapialgorithm: "hmac-sha256",
  dhcplease: "43200",
  dnshandler: "ddns",
  domain: "cluster.local",
  enableASMI: "no",
  forwarders: "10.0.0.254",
  fsptimeout: "0",
  installdir: "/install",
  ipmimaxp: "64",
  ipmiretries: "3",
  ipmitimeout: "2",
  master: "10.0.0.1",
  maxssh: "8",
  nameservers: "10.0.0.1",
  nodesyncfiledir: "/var/xcat/node/syncfiles",
  powerinterval: "0",
  ppcmaxp: "64",
  ppcretry: "3",
  ppctimeout: "0",
  sharedtftp: "1",
  SNsyncfiledir: "/var/xcat/syncfiles",
  sshbetweennodes: "ALLGROUPS",
  syspowerinterval: "0",
  tftpdir: "/tftpboot",
  timezone: "UTC",
  useNmapfromMN: "no",
  vsftp: "n",
  auditnosyslog: "0",
  auditskipcmds: "ALL",
  xcatconfdir: "/etc/xcat",
  xcatdport: "3001",
  xcatiport: "3002",
  xcatsslversion: "TLSv12",
  xcattlspolicy: "modern",
};

const POLICIES: readonly (readonly [string, Record<string, string>])[] = [
  ["1", { name: "root", rule: "allow" }],
  ["1.2", { name: MN_HOSTNAME, rule: "trusted" }],
  ["2", { commands: "getbmcconfig", rule: "allow" }],
  ["2.1", { commands: "remoteimmsetup", rule: "allow" }],
  ["2.3", { commands: "lsxcatd", rule: "allow" }],
  ["3", { commands: "nextdestiny", rule: "allow" }],
  ["4", { commands: "getdestiny", rule: "allow" }],
  ["4.4", { commands: "getpostscript", rule: "allow" }],
  ["4.5", { commands: "getcredentials", rule: "allow" }],
  ["4.6", { commands: "syncfiles", rule: "allow" }],
  ["4.7", { commands: "litefile", rule: "allow" }],
  ["4.8", { commands: "litetree", rule: "allow" }],
  ["4.9", { commands: "getadapter", rule: "allow" }],
];

/** Fills an empty database; a database that was seeded before (a data file) is left alone. */
export function seedManagementNode(db: Database, account: { user: string; password: string }): void {
  if (db.first("_emu_meta", { key: "seeded" })) {
    // Keep the configured account usable with an existing data file.
    db.upsert("passwd", { key: "xcat", username: account.user }, { password: account.password });
    return;
  }
  db.transaction(() => {
    db.insert("passwd", { key: "xcat", username: account.user, password: account.password });
    for (const [priority, values] of POLICIES) db.insert("policy", { priority, ...values });
    if (account.user !== "root") {
      // The documented recipe for a REST user: mkdef -t policy 6 name=<user> rule=allow.
      db.insert("policy", { priority: "6", name: account.user, rule: "allow" });
    }
    for (const [key, value] of Object.entries(SITE_DEFAULTS)) db.insert("site", { key, value });
    db.insert("postscripts", {
      node: "xcatdefaults",
      postscripts: "syslog,remoteshell,syncfiles",
      postbootscripts: "otherpkgs",
    });
    db.insert("_emu_meta", { key: "seeded", value: "1" });
  });
}
