/**
 * What xCAT creates itself on a management node, left out of an import unless asked for:
 * the site keys and policy rows xcatconfig writes (/tmp/xc/xCAT-server/sbin/xcatconfig:1213-1287
 * for site, :1398-1424 for policy) and the `xcatdefaults` postscripts row.
 */

/** Site keys xcatconfig sets on every management node. */
export const XCATCONFIG_SITE_KEYS: ReadonlySet<string> = new Set([
  "SNsyncfiledir",
  "auditnosyslog",
  "auditskipcmds",
  "blademaxp",
  "cleanupdiskfullxcatpost",
  "cleanupxcatpost",
  "consoleondemand",
  "databaseloc",
  "db",
  "dhcplease",
  "dhcpomapialgorithm",
  "dnshandler",
  "domain",
  "enableASMI",
  "forwarders",
  "fsptimeout",
  "installdir",
  "ipmimaxp",
  "ipmiretries",
  "ipmitimeout",
  "master",
  "maxssh",
  "nameservers",
  "nodesyncfiledir",
  "powerinterval",
  "ppcmaxp",
  "ppcretry",
  "ppctimeout",
  "sharedtftp",
  "sshbetweennodes",
  "syspowerinterval",
  "tftpdir",
  "timezone",
  "useNFSv4onAIX",
  "useNmapfromMN",
  "useSSHonAIX",
  "useflowcontrol",
  "vsftp",
  "xcatconfdir",
  "xcatdport",
  "xcatiport",
  "xcatsslversion",
  "xcattlspolicy",
]);

/** Policy priorities xcatconfig creates (root, the management node, the node commands). */
export const XCATCONFIG_POLICIES: ReadonlySet<string> = new Set([
  "1",
  "1.2",
  "2",
  "2.1",
  "2.3",
  "3",
  "4",
  "4.4",
  "4.5",
  "4.6",
  "4.7",
  "4.8",
  "4.9",
]);
