/**
 * What `xcatconfig -d` (initDB) writes on a freshly installed Linux management node: the site
 * keys, the policy rows and the postscripts rows (xCAT-server/sbin/xcatconfig at master: site
 * 1213-1278, postscripts 1313-1360, policy 1377-1424). Import uses it to leave out what still
 * holds its fresh value; the emulator seeds its database from it.
 *
 * Checked on real management nodes set up with `xcatconfig -d`: 2.19 (master) and 2.16.5 wrote
 * exactly these keys, less the ones a release does not write (`since`) and the ones whose value
 * is empty (`chtab key=xcatsslversion site.value=` writes no row).
 */
import { compareVersions } from "./xcat-versions";

/** A value xcatconfig takes from the machine it runs on. */
export const FROM_THE_MACHINE = Symbol("from the machine");

export type FreshValue = string | typeof FROM_THE_MACHINE;

/** Site keys and the value xcatconfig gives each on Linux. */
export const XCATCONFIG_SITE: Readonly<Record<string, FreshValue>> = {
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
  dhcpomapialgorithm: FROM_THE_MACHINE, // chosen for the platform and OS (OmapiPolicy), or none
  dhcplease: "43200",
  auditnosyslog: "0",
  xcatsslversion: "",
  xcattlspolicy: "modern",
  auditskipcmds: "ALL",
};

/** Site keys only later releases write: 2.18.0:xCAT-server/sbin/xcatconfig:1259, 2.18.2:…:1272. */
const SITE_KEY_SINCE: Readonly<Record<string, string>> = {
  xcattlspolicy: "2.18.0",
  dhcpomapialgorithm: "2.18.2",
};

/** The site keys xcatconfig of `version` writes (all of them when the release is unknown). */
export function xcatconfigSiteKeys(version?: string): string[] {
  return Object.keys(XCATCONFIG_SITE).filter((key) => {
    const since = SITE_KEY_SINCE[key];
    return version === undefined || since === undefined || compareVersions(version, since) >= 0;
  });
}

/** Policy rows xcatconfig creates on Linux, by priority (1.2 is named after the host). */
export const XCATCONFIG_POLICIES: Readonly<Record<string, Readonly<Record<string, FreshValue>>>> = {
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
