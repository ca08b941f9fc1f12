/**
 * Simulated hardware behind each node: what a BMC or hypervisor would report. The first look at
 * a node derives its state from (seed, node name), so it is stable across calls and runs; a
 * state is only stored once an action changes it, so reads never change the data.
 */
import { Derived } from "../random";
import type { Database } from "./database";

export interface VirtualDisk {
  readonly dev: string;
  readonly sizeGb: number;
}

export interface HardwareState {
  power: "on" | "off";
  /** Display text of the next boot device (rsetboot stat). */
  nextboot: string;
  beacon: "on" | "off" | "blink";
  eventlog: string[];
  energy: { cappingstatus: string; cappingvalue: string };
  sp: Record<string, string>;
  /** Present once mkvm or clonevm defined the guest. */
  vm?: { disks: VirtualDisk[]; master?: string };
}

/** IPMI SEL style timestamp: MM/DD/YYYY HH:MM:SS. */
export function selTimestamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(date.getMonth() + 1)}/${p(date.getDate())}/${date.getFullYear()} ${p(date.getHours())}:${p(
    date.getMinutes(),
  )}:${p(date.getSeconds())}`;
}

const INITIAL_EVENTS = [
  "Power Supply #0x51, Power Supply AC lost",
  "Power Supply #0x51, Presence detected",
  "System ACPI Power State #0x1c, S0/G0: working",
  "Temperature #0x30, Upper Non-critical going high",
  "Temperature #0x30, Upper Non-critical going low",
  "Drive Slot #0x40, Drive Present",
];

export class Hardware {
  readonly #db: Database;
  readonly #seed: number;
  readonly #clock: () => Date;

  constructor(db: Database, seed: number, clock: () => Date) {
    this.#db = db;
    this.#seed = seed;
    this.#clock = clock;
  }

  derived(node: string): Derived {
    return new Derived(this.#seed, node);
  }

  now(): Date {
    return this.#clock();
  }

  /** The node's state: stored, or derived for a node no action has touched yet. */
  get(node: string): HardwareState {
    const row = this.#db.first("_emu_hardware", { node });
    if (row?.state) return JSON.parse(row.state) as HardwareState;
    return this.#initial(node);
  }

  /** States of many nodes with one query. */
  getMany(nodes: readonly string[]): Map<string, HardwareState> {
    const stored = new Map<string, HardwareState>();
    for (const row of this.#db.selectIn("_emu_hardware", "node", nodes)) {
      if (row.node && row.state) stored.set(row.node, JSON.parse(row.state) as HardwareState);
    }
    return new Map(nodes.map((n) => [n, stored.get(n) ?? this.#initial(n)]));
  }

  save(node: string, state: HardwareState): void {
    this.#db.insert("_emu_hardware", { node, state: JSON.stringify(state) });
  }

  forget(nodes: readonly string[]): void {
    this.#db.deleteIn("_emu_hardware", "node", nodes);
  }

  /** Appends an event log entry stamped with the emulator clock. */
  log(state: HardwareState, text: string): void {
    state.eventlog.push(`${selTimestamp(this.#clock())} ${text}`);
  }

  #initial(node: string): HardwareState {
    const d = this.derived(node);
    const events: string[] = [];
    const count = d.int("events", 1, 4);
    for (let i = 0; i < count; i++) {
      const day = d.int(`event-day-${i}`, 1, 28);
      const hour = d.int(`event-hour-${i}`, 0, 23);
      const minute = d.int(`event-minute-${i}`, 0, 59);
      const stamp = selTimestamp(new Date(2024, i, day, hour, minute, d.int(`event-second-${i}`, 0, 59)));
      events.push(`${stamp} ${d.pick(`event-${i}`, INITIAL_EVENTS)}`);
    }
    return {
      power: d.int("power", 0, 3) === 0 ? "off" : "on",
      nextboot: "boot override inactive",
      beacon: "off",
      eventlog: events,
      energy: { cappingstatus: "off", cappingvalue: `${d.int("capping", 30, 50) * 10} W` },
      sp: {},
    };
  }
}
