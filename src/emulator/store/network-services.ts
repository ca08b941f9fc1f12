/**
 * The management node's name and address services: /etc/hosts (makehosts), DNS (makedns),
 * DHCP (makedhcp), network discovery (makenetworks) and SLP discovery (lsslp). Records live in
 * `_emu_*` tables, as the real files live outside xCAT's database.
 */
import { nodeError } from "../../contract/messages";
import { Derived } from "../random";
import type { Database } from "./database";
import type { Definitions } from "./definitions";
import { CommandError } from "./errors";
import { isIpv4 } from "./ipv4";
import { type MnInterface, networkOf } from "./mn-interfaces";

export const SLP_TYPES = [
  "CEC",
  "FRAME",
  "MM",
  "IVM",
  "RSA",
  "HMC",
  "CMM",
  "IMM2",
  "FSP",
  "BPA",
  "PBMC",
  "PDU",
];

export class NetworkServices {
  readonly #db: Database;
  readonly #defs: Definitions;
  readonly #seed: number;
  /** The MN's own interfaces (./mn-interfaces.ts). */
  readonly interfaces: readonly MnInterface[];

  constructor(db: Database, defs: Definitions, seed: number, interfaces: readonly MnInterface[]) {
    this.#db = db;
    this.#defs = defs;
    this.#seed = seed;
    this.interfaces = interfaces;
  }

  #domain(): string {
    return this.#db.first("site", { key: "domain" })?.value ?? "";
  }

  /**
   * makehosts: writes `ip name name.domain` lines (all nodes without a range). A node without
   * hosts.ip is looked up by name (hosts.pm:366-368), which on this MN means its own /etc/hosts;
   * a node that still has no address is skipped with a warning only (hosts.pm:401-411), and the
   * CGI drops warnings, so the request succeeds.
   */
  makehosts(nodes?: readonly string[]): void {
    const names = nodes ?? this.#defs.names("node");
    const objects = this.#defs.read(names);
    const domain = this.#domain();
    for (const node of names) {
      const ip = objects.get(node)?.ip || this.#db.first("_emu_etchosts", { name: node })?.ip;
      if (!ip || !isIpv4(ip)) continue;
      const aliases = [domain ? `${node}.${domain}` : "", ...(objects.get(node)?.hostnames?.split(",") ?? [])]
        .filter((s) => s)
        .join(" ");
      this.#db.insert("_emu_etchosts", { name: node, ip, aliases: aliases || null });
    }
  }

  /** makedns [-d]: adds or removes A records; a node must be in /etc/hosts first. */
  makedns(nodes: readonly string[] | undefined, remove = false): void {
    if (!this.#domain())
      throw new CommandError(["The site table attribute 'domain' is not set, makedns cannot continue."]);
    if (nodes === undefined) {
      // makedns -n: (re)initialise the zone from the whole hosts file.
      this.#db.delete("_emu_dns", {});
      for (const row of this.#db.select("_emu_etchosts")) {
        if (row.name && row.ip) this.#db.insert("_emu_dns", { name: row.name, ip: row.ip });
      }
      this.#db.insert("_emu_services", { name: "dns", state: "running" });
      return;
    }
    const errors: string[] = [];
    for (const node of nodes) {
      if (remove) {
        this.#db.delete("_emu_dns", { name: node });
        continue;
      }
      const entry = this.#db.first("_emu_etchosts", { name: node });
      if (!entry?.ip) {
        errors.push(
          nodeError(node, `Ignoring host ${node}, it does not exist in /etc/hosts. Run makehosts first.`),
        );
        continue;
      }
      this.#db.insert("_emu_dns", { name: node, ip: entry.ip });
    }
    if (errors.length > 0) throw new CommandError(errors);
  }

  /**
   * The address a name resolves to on the management node: its /etc/hosts, then the DNS it
   * serves (xCAT's getipaddr asks the system resolver; the node's `ip` attribute is not read).
   */
  resolve(name: string): string | undefined {
    return (
      this.#db.first("_emu_etchosts", { name })?.ip ?? this.#db.first("_emu_dns", { name })?.ip ?? undefined
    );
  }

  /**
   * makedhcp [-d]: host entries for nodes with a MAC. A node without one is only a warning in
   * xCAT ("Unable to find mac address for <node>"), and warnings are never shown (§2.2). The
   * address is the node's name resolved on the management node (dhcp.pm master:782,
   * `getipaddr($hname)`), not its `ip` attribute: a name that does not resolve is a warning ("The
   * hostname ... could not be resolved", master:801-809) and the host gets no fixed address
   * (master:249), so the node gets none when it network-boots.
   */
  makedhcp(nodes: readonly string[] | undefined, remove = false): void {
    if (nodes === undefined) {
      this.#db.insert("_emu_services", { name: "dhcp", state: "configured" });
      return;
    }
    const objects = this.#defs.read(nodes);
    for (const node of nodes) {
      if (remove) {
        this.#db.delete("_emu_dhcp", { node });
        continue;
      }
      const mac = objects.get(node)?.mac;
      if (!mac) continue;
      this.#db.insert("_emu_dhcp", {
        node,
        mac: mac.split("|")[0] ?? mac,
        ip: this.resolve(node) ?? null,
      });
    }
  }

  /** makenetworks: a network object per MN interface whose net/mask is not defined yet. */
  makenetworks(): void {
    for (const nic of this.interfaces) {
      const net = networkOf(nic);
      if (this.#db.first("networks", { net, mask: nic.mask })) continue;
      const name = `${net.replaceAll(".", "_")}-${nic.mask.replaceAll(".", "_")}`;
      this.#defs.create(
        "network",
        [name],
        [
          ["net", net],
          ["mask", nic.mask],
          ["mgtifname", nic.name],
          ...(nic.gateway ? [["gateway", nic.gateway] as const] : []),
          ["tftpserver", nic.ip],
          ["staticrangeincrement", "1"],
        ],
      );
    }
  }

  /** lsslp -z: a deterministic set of service processors answering SLP, optionally of one type. */
  slpnodes(type?: string): Map<string, Record<string, string>> {
    const out = new Map<string, Record<string, string>>();
    const found: [string, string][] = [
      ["cmm01", "CMM"],
      ["cmm02", "CMM"],
      ["imm-node01", "IMM2"],
      ["imm-node02", "IMM2"],
    ];
    for (const [name, hwtype] of found) {
      if (type !== undefined && type !== hwtype) continue;
      const d = new Derived(this.#seed, name);
      const mac = `40f2e9${d.hex("mac", 6)}`.match(/../g)?.join(":") ?? "";
      out.set(name, {
        objtype: "node",
        mpa: hwtype === "CMM" ? name : "cmm01",
        nodetype: "mp",
        mtm: hwtype === "CMM" ? "8721HC1" : "7X21CTO1WW",
        serial: d.hex("serial", 7).toUpperCase(),
        side: "1",
        groups: hwtype === "CMM" ? "cmm,all" : "imm,all",
        mgt: hwtype === "CMM" ? "blade" : "ipmi",
        hidden: "0",
        hwtype: hwtype === "CMM" ? "cmm" : "imm2",
        otherinterfaces: `10.2.0.${d.int("ip", 2, 250)}`,
        mac,
      });
    }
    return out;
  }
}
