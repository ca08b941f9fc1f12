/**
 * What a node does after it is powered on, in simulated time: the statuses xCAT records in
 * nodelist.status/statustime while a node network-installs, netboots or boots from disk.
 *
 * Where the statuses come from in xCAT (xcat2/xcat-core 7733d16f):
 * - rpower on/boot (and reset of a running node) sets `powering-on`, off/softoff `powering-off`
 *   (xCAT-server/lib/xcat/plugins/ipmi.pm:2958-2966);
 * - the installer and the netboot initrd report `installing` / `netbooting` to xcatd's port 3002
 *   ("installstatus", xCAT-server/sbin/xcatd:505-525);
 * - the post-install script reports `booted` or `failed` (xCAT/postscripts/xcatinstallpost:140,146)
 *   and asks for `nodeset next`, which turns an install boot state back into `boot`
 *   (xCAT-server/sbin/xcatd:490-503);
 * - the values are those of perl-xCAT/xCAT/GlobalDef.pm:43-63; statustime is local time as
 *   `MM-DD-YYYY HH:MM:SS` (xCAT-server/lib/xcat/monitoring/monitorctrl.pm:697).
 *
 * A node's sequence is stored in `_emu_boot` when its power action starts it, and applied to the
 * node's status lazily: `advance()` writes every step whose time has come, stamped with the time
 * the step happened (not the time it was noticed), so a slow poller sees the same history.
 * Nothing here knows HTTP.
 */
import type { Database } from "./database";
import type { Definitions } from "./definitions";

/** How a node's next boot ends: it boots, its installation fails, or it hangs in the installer. */
export type BootOutcome = "boot" | "fail" | "hang";

/**
 * How a boot actually runs: as planned, or `unaddressed` when a network boot gets no address from
 * the management node's DHCP (see {@link BootSimulation.start}).
 */
type RunOutcome = BootOutcome | "unaddressed";

/** What the node boots: an installer (install), a diskless image (netboot) or its own disk. */
export type BootMethod = "install" | "netboot" | "disk";

export interface BootStep {
  /** Milliseconds after the power action. */
  readonly atMs: number;
  readonly status: string;
}

/**
 * The steps of one boot. Powering on is immediate; the installer or initrd reports after a tenth
 * of the boot time; the installed OS starts booting after six tenths and reports `booted` at the
 * end. A failing install reports `failed` where it would have rebooted; a hanging one stays in
 * `installing` / `netbooting` for ever.
 */
export function bootSteps(method: BootMethod, outcome: RunOutcome, bootMs: number): BootStep[] {
  const steps: BootStep[] = [{ atMs: 0, status: "powering-on" }];
  // No DHCP offer: the firmware's network boot never reaches an installer or initrd, so nothing
  // ever reports a status again.
  if (outcome === "unaddressed" && method !== "disk") return steps;
  if (method !== "disk") {
    steps.push({
      atMs: Math.round(bootMs * 0.1),
      status: method === "install" ? "installing" : "netbooting",
    });
  }
  if (outcome === "hang") return steps;
  if (outcome === "fail") return [...steps, { atMs: Math.round(bootMs * 0.6), status: "failed" }];
  return [
    ...steps,
    { atMs: Math.round(bootMs * 0.6), status: "booting" },
    { atMs: bootMs, status: "booted" },
  ];
}

/** Index of the last step reached `elapsedMs` after the start (0 at the start). */
export function stepReached(steps: readonly BootStep[], elapsedMs: number): number {
  let reached = 0;
  for (const [index, step] of steps.entries()) if (step.atMs <= elapsedMs) reached = index;
  return reached;
}

/** nodelist.statustime as xCAT writes it: local time `MM-DD-YYYY HH:MM:SS` (monitorctrl.pm:697). */
export function statusTime(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(date.getMonth() + 1)}-${p(date.getDate())}-${date.getFullYear()} ${p(date.getHours())}:${p(
    date.getMinutes(),
  )}:${p(date.getSeconds())}`;
}

/** The method a boot state (chain.currstate, `nodeset stat`) network-boots with, if any. */
export function methodOf(currstate: string | undefined): BootMethod | undefined {
  const word = (currstate ?? "").split(" ")[0];
  if (word === "install") return "install";
  if (word === "netboot" || word === "statelite") return "netboot";
  return undefined;
}

export interface BootSimulationOptions {
  /** Seconds from power-on to `booted` (default 30). */
  readonly bootSeconds?: number;
  /** Nodes whose installation fails. */
  readonly failNodes?: readonly string[];
  /** Nodes that hang in the installer. */
  readonly hangNodes?: readonly string[];
}

/** The running boots of all nodes and the planned outcome of each node's next boot. */
export class BootSimulation {
  readonly #db: Database;
  readonly #defs: Definitions;
  readonly #clock: () => Date;
  readonly #bootMs: number;
  readonly #outcomes = new Map<string, BootOutcome>();

  constructor(db: Database, defs: Definitions, clock: () => Date, options: BootSimulationOptions = {}) {
    this.#db = db;
    this.#defs = defs;
    this.#clock = clock;
    this.#bootMs = Math.max(0, (options.bootSeconds ?? 30) * 1000);
    for (const node of options.failNodes ?? []) this.#outcomes.set(node, "fail");
    for (const node of options.hangNodes ?? []) this.#outcomes.set(node, "hang");
  }

  /** Makes the node's following boots end in `outcome` (`boot` clears a planned failure). */
  setOutcome(node: string, outcome: BootOutcome): void {
    if (outcome === "boot") this.#outcomes.delete(node);
    else this.#outcomes.set(node, outcome);
  }

  outcome(node: string): BootOutcome {
    return this.#outcomes.get(node) ?? "boot";
  }

  /**
   * Whether a network boot of `node` gets an address: xCAT's DHCP configuration holds a fixed
   * address only for a node whose name resolved on the management node when makedhcp ran
   * (dhcp.pm getipaddr, master:782; `_add_isc_static_host` writes no host without an address,
   * master:249), and nodeset runs makedhcp itself (xnba.pm master:857-872, grub2.pm
   * master:792-809). With site.dhcpsetup `n` another DHCP server answers, which is not modelled:
   * the node is taken to get its address there.
   */
  #addressed(node: string): boolean {
    const dhcpsetup = this.#db.first("site", { key: "dhcpsetup" })?.value ?? "";
    if (/0|n|N/.test(dhcpsetup)) return true;
    return Boolean(this.#db.first("_emu_dhcp", { node })?.ip);
  }

  /** Starts the boot of nodes that were just powered on (or reset), each with its method. */
  start(boots: ReadonlyArray<{ readonly node: string; readonly method: BootMethod }>): void {
    if (boots.length === 0) return;
    const started = this.#clock().getTime();
    this.#db.transaction(() => {
      for (const { node, method } of boots) {
        this.#db.insert("_emu_boot", {
          node,
          method,
          outcome: method !== "disk" && !this.#addressed(node) ? "unaddressed" : this.outcome(node),
          started: String(started),
          step: "-1",
        });
      }
    });
    this.advance();
  }

  /** Ends the boots of nodes powered off, recording `status` (powering-off) for them. */
  stop(nodes: readonly string[], status: string): void {
    if (nodes.length === 0) return;
    this.#db.deleteIn("_emu_boot", "node", nodes);
    this.#write(new Map([[statusTime(this.#clock()), new Map([[status, [...nodes]]])]]));
  }

  /** Forgets the boots of removed nodes. */
  forget(nodes: readonly string[]): void {
    this.#db.deleteIn("_emu_boot", "node", nodes);
  }

  /** Writes every step that is due; called before each request is served. */
  advance(): void {
    const rows = this.#db.select("_emu_boot");
    if (rows.length === 0) return;
    const now = this.#clock().getTime();
    const writes = new Map<string, Map<string, string[]>>();
    const finished: string[] = [];
    const installed: string[] = [];
    const progressed: typeof rows = [];
    for (const row of rows) {
      const node = row.node ?? "";
      const method = (row.method ?? "disk") as BootMethod;
      const outcome = (row.outcome ?? "boot") as RunOutcome;
      const started = Number(row.started);
      const steps = bootSteps(method, outcome, this.#bootMs);
      const reached = stepReached(steps, now - started);
      const done = Number(row.step);
      if (reached <= done) continue;
      const step = steps[reached] as BootStep;
      const time = statusTime(new Date(started + step.atMs));
      const byStatus = writes.get(time) ?? new Map<string, string[]>();
      byStatus.set(step.status, [...(byStatus.get(step.status) ?? []), node]);
      writes.set(time, byStatus);
      if (reached === steps.length - 1 && outcome !== "hang") {
        finished.push(node);
        if (method === "install" && step.status === "booted") installed.push(node);
      } else {
        progressed.push({ ...row, step: String(reached) });
      }
    }
    if (writes.size === 0) return;
    this.#db.transaction(() => {
      for (const row of progressed) this.#db.insert("_emu_boot", row);
      this.#write(writes);
      if (finished.length > 0) this.#db.deleteIn("_emu_boot", "node", finished);
      // The post-install script's `nodeset next`: the next boot is from the installed disk.
      if (installed.length > 0) this.#defs.change("node", installed, [["currstate", "boot"]]);
    });
  }

  #write(writes: ReadonlyMap<string, ReadonlyMap<string, string[]>>): void {
    for (const [time, byStatus] of writes) {
      for (const [status, nodes] of byStatus) {
        this.#defs.change("node", nodes, [
          ["status", status],
          ["statustime", time],
        ]);
      }
    }
  }
}
