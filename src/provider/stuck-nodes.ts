/**
 * Why a node whose deployment has not moved for a while may be stuck, from what the management
 * node reports about it (issue #37 item 4: a canary sat at `powering-on` for 13 minutes with no
 * hint). The causes come from how xCAT boots a node (docs/provisioning.md):
 * - `rpower boot` sets `powering-on` (ipmi.pm:2958-2966) and the next status comes from the
 *   installer or initrd (`installing` / `netbooting`, reported to xcatd port 3002, xcatd:505-525).
 *   A node that stays at `powering-on` never got that far: its network boot got no address or no
 *   boot file, or it never powered on at all.
 * - nodeset runs makedhcp itself (xnba.pm master:857-872, grub2.pm master:792-809) unless
 *   site.dhcpsetup says n (xnba.pm master:860); makedhcp reserves an address only for a node with
 *   a MAC whose name resolves on the management node (dhcp.pm master:782 `getipaddr($hname)`;
 *   no host is written without an address, master:249). An `ip` in xCAT's hosts table, own or from
 *   a group's regex, does not make the name resolve: makehosts or makedns must have written it.
 *   xCAT's REST API cannot read /etc/hosts, DNS or the DHCP configuration, so the line names
 *   the commands that tell, to run on the management node.
 * Nothing here does I/O: deploy.ts reads the facts.
 */

/** What the management node reports about a node that has not moved. */
export interface StuckNodeFacts {
  readonly node: string;
  readonly status: string;
  /** nodelist.statustime, "" when unknown. */
  readonly statusTime: string;
  /** `rpower stat` (on, off, ...), undefined when it could not be read. */
  readonly power: string | undefined;
  readonly mac: string;
  readonly ip: string;
  /** nodeset runs makedhcp: site.dhcpsetup is not n. */
  readonly dhcpByXcat: boolean;
}

/** Statuses an installer or initrd reports once the network boot worked (GlobalDef.pm:43-63). */
const INSTALLER_STATUSES = new Set(["installing", "netbooting", "booting", "postbooting", "installed"]);

/**
 * The likely causes, most basic first; empty when nothing the server reports explains the wait.
 *
 * @example
 * stuckCauses({ node: "n1", status: "powering-on", statusTime: "", power: "off", mac: "m", ip: "10.0.0.1", dhcpByXcat: true });
 * // ["rpower stat says off: the power-on did not take; check its BMC (bmc, bmcusername, bmcpassword)", ...]
 */
export function stuckCauses(facts: StuckNodeFacts): string[] {
  const causes: string[] = [];
  if (facts.power === "off") {
    causes.push(
      "rpower stat says off: the power-on did not take; check its BMC (bmc, bmcusername, bmcpassword)",
    );
  }
  if (INSTALLER_STATUSES.has(facts.status)) {
    causes.push(
      `the installer reported ${facts.status} and nothing since: look at its console (rcons ${facts.node}) ` +
        "and the installer's log",
    );
    return causes;
  }
  if (!facts.mac) {
    causes.push("it has no MAC (mac.mac): makedhcp writes no DHCP reservation without one");
  }
  if (!facts.dhcpByXcat) {
    causes.push(
      "site.dhcpsetup is n: xCAT wrote no DHCP reservation, so the site's own DHCP server must give it an " +
        "address and xCAT's boot file",
    );
    return causes;
  }
  const resolveHint =
    `on the management node, getent hosts ${facts.node} tells whether its name resolves and ` +
    `makedhcp -q ${facts.node} whether it has a reservation`;
  if (!facts.ip) {
    causes.push(
      "it has no ip in xCAT: makedhcp reserves an address only for a name that resolves on the " +
        `management node (xCAT dhcp.pm), so it likely has no DHCP reservation; ${resolveHint}`,
    );
  } else if (facts.mac) {
    causes.push(
      `no installer reported after power-on: its DHCP reservation exists only if its name resolves on the ` +
        `management node (xCAT dhcp.pm), and an ip in xCAT (${facts.ip}) does not make it resolve unless ` +
        `makehosts or makedns wrote it; ${resolveHint}`,
    );
  }
  return causes;
}

/**
 * The line for one node, or undefined when no cause applies.
 *
 * @example
 * stuckLine(facts, 10); // "r02n01: still powering-on since 11-26-2026 17:00:00 (10 min without a change); may be stuck: ..."
 */
export function stuckLine(facts: StuckNodeFacts, minutes: number): string | undefined {
  const causes = stuckCauses(facts);
  if (causes.length === 0) return undefined;
  const since = facts.statusTime ? ` since ${facts.statusTime}` : "";
  return (
    `${facts.node}: still ${facts.status || "without a status"}${since} (${minutes} min without a change); ` +
    `may be stuck: ${causes.join("; ")}`
  );
}
