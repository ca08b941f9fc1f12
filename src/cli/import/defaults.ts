/**
 * What a fresh management node holds, by value: the site values, policy rows and postscripts rows
 * that `xcatconfig -d` writes on Linux (xCAT-server/sbin/xcatconfig at master: site 1213-1278,
 * postscripts 1313-1360, policy 1377-1424; 2.16.5 writes the same except `xcattlspolicy` and
 * `dhcpomapialgorithm`). Import leaves out only what still holds that value: anything the admin
 * changed is theirs and is imported. A value xcatconfig takes from the machine (the host's
 * domain, address, time zone, resolvers; the management node's name in policy 1.2) is the
 * admin's choice of machine, not a default, and is always imported.
 */

/** A value xcatconfig takes from the machine it runs on. */
export const FROM_THE_MACHINE = Symbol("from the machine");

type Default = string | typeof FROM_THE_MACHINE;

/** Site keys and the value xcatconfig gives each on Linux. */
export const XCATCONFIG_SITE: Readonly<Record<string, Default>> = {
  blademaxp: "64",
  domain: FROM_THE_MACHINE, // `hostname -d`
  fsptimeout: "0",
  installdir: "/install", // $::INSTALLDIR, xcatconfig 45
  ipmimaxp: "64",
  ipmiretries: "3",
  ipmitimeout: "2",
  consoleondemand: "no", // "yes" only on AIX
  master: FROM_THE_MACHINE, // the host name's address
  forwarders: FROM_THE_MACHINE, // /etc/resolv.conf's name servers
  nameservers: FROM_THE_MACHINE, // = master
  maxssh: "8",
  ppcmaxp: "64",
  ppcretry: "3",
  ppctimeout: "0",
  powerinterval: "0",
  syspowerinterval: "0",
  sharedtftp: "1",
  SNsyncfiledir: "/var/xcat/syncfiles",
  nodesyncfiledir: "/var/xcat/node/syncfiles",
  tftpdir: "/tftpboot", // $::TFTPDIR, xcatconfig 48
  xcatdport: "3001",
  xcatiport: "3002",
  xcatconfdir: "/etc/xcat",
  timezone: FROM_THE_MACHINE, // xCAT::Utils->gettimezone
  useNmapfromMN: "no",
  enableASMI: "no",
  db2installloc: "/mntdb2",
  databaseloc: "/var/lib",
  sshbetweennodes: "ALLGROUPS",
  dnshandler: "ddns",
  vsftp: "n",
  cleanupxcatpost: "no",
  cleanupdiskfullxcatpost: "no",
  dhcpomapialgorithm: FROM_THE_MACHINE, // chosen for the platform and OS (OmapiPolicy)
  dhcplease: "43200",
  auditnosyslog: "0",
  xcatsslversion: "",
  xcattlspolicy: "modern",
  auditskipcmds: "ALL",
};

/** Policy rows xcatconfig creates on Linux, by priority. */
export const XCATCONFIG_POLICIES: Readonly<Record<string, Readonly<Record<string, Default>>>> = {
  "1": { name: "root", rule: "allow" },
  "1.2": { name: FROM_THE_MACHINE, rule: "trusted" },
  "2": { commands: "getbmcconfig", rule: "allow" },
  "2.1": { commands: "remoteimmsetup", rule: "allow" },
  "2.3": { commands: "lsxcatd", rule: "allow" },
  "3": { commands: "nextdestiny", rule: "allow" },
  "4": { commands: "getdestiny", rule: "allow" },
  "4.4": { commands: "getpostscript", rule: "allow" },
  "4.5": { commands: "getcredentials", rule: "allow" },
  "4.6": { commands: "syncfiles", rule: "allow" },
  "4.7": { commands: "litefile", rule: "allow" },
  "4.8": { commands: "litetree", rule: "allow" },
  "4.9": { commands: "getadapter", rule: "allow" },
};

/** Rows of the postscripts table xcatconfig creates, by their `node` key. */
export const XCATCONFIG_POSTSCRIPTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  xcatdefaults: { postscripts: "syslog,remoteshell,syncfiles", postbootscripts: "otherpkgs" },
  service: { postscripts: "servicenode" },
};

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
  fresh: Readonly<Record<string, Default>>,
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
