/**
 * The test-facing view of the emulator's data: deterministic snapshots, table-level hand edits
 * and lsdef-style object reads. It goes through the same store the HTTP layer uses, so what a
 * test writes here is what the next request sees.
 */
import { compareStrings } from "../contract/noderange";
import { type ObjectType, tableNames } from "../contract/schema";
import type { BootOutcome } from "./store/boot-sequence";
import { EMULATOR_TABLES, type Row } from "./store/database";
import type { HardwareState } from "./store/hardware";
import type { XcatStore } from "./store/store";

/** Tables left out of snapshots: tokens change on every login and say nothing about the cluster. */
const VOLATILE_TABLES = new Set(["token", "_emu_meta"]);

function canonicalRow(row: Row): Row {
  const out: Row = {};
  for (const key of Object.keys(row).sort(compareStrings)) {
    const value = row[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** Inspect and change the emulated xCAT data from tests. */
export interface EmulatorState {
  /**
   * All data as JSON text: tables sorted by name (empty ones omitted), rows sorted, columns
   * sorted, empty columns omitted. Equal snapshots mean equal data. The `token` table is left
   * out; simulated hardware and services appear as `_emu_*` tables.
   */
  snapshot(): string;
  /** Rows of an xCAT (or `_emu_*`) table with their non-empty columns, disabled rows included. */
  getRows(table: string): Row[];
  /** Sets columns of the rows matching `keys`, inserting one row when none matches (like tabch). */
  setRow(
    table: string,
    keys: Readonly<Record<string, string>>,
    values: Readonly<Record<string, string | null>>,
  ): void;
  /** Deletes the rows matching every pair of `keys`; returns how many were deleted. */
  deleteRows(table: string, keys: Readonly<Record<string, string>>): number;
  /** An object as `lsdef -t <type> -o <name>` shows it, or undefined when it does not exist. */
  getObject(type: ObjectType, name: string): Record<string, string> | undefined;
  /** Names of the objects of a type, sorted. */
  listObjects(type: ObjectType): string[];
  /** The simulated hardware state of a node (power, boot device, event log, VM...). */
  getHardware(node: string): HardwareState;
  /**
   * How the node's next boots end: `boot` (default), `fail` (the installer reports `failed`) or
   * `hang` (it stays `installing` / `netbooting`). Takes effect at the next power-on.
   */
  setBootOutcome(node: string, outcome: BootOutcome): void;
}

export function createState(store: XcatStore): EmulatorState {
  return {
    snapshot() {
      store.tick();
      const tables: Record<string, Row[]> = {};
      for (const table of [...tableNames(), ...Object.keys(EMULATOR_TABLES)].sort(compareStrings)) {
        if (VOLATILE_TABLES.has(table)) continue;
        const rows = store.db
          .dump(table)
          .filter((r) => Object.keys(r).length > 0)
          .map(canonicalRow);
        if (rows.length === 0) continue;
        const keyed = rows
          .map((r) => [JSON.stringify(r), r] as const)
          .sort((a, b) => compareStrings(a[0], b[0]));
        tables[table] = keyed.map(([, r]) => r);
      }
      return JSON.stringify(tables, null, 1);
    },
    getRows(table) {
      store.tick();
      return store.db.dump(table).filter((r) => Object.keys(r).length > 0);
    },
    setRow(table, keys, values) {
      store.db.upsert(table, keys, values);
    },
    deleteRows(table, keys) {
      return store.db.delete(table, keys);
    },
    getObject(type, name) {
      store.tick();
      if (type === "site")
        return name === "clustersite"
          ? store.definitions.show("site", undefined).get("clustersite")
          : undefined;
      return store.definitions.object(type, name);
    },
    listObjects(type) {
      return store.definitions.names(type);
    },
    getHardware(node) {
      return store.hardware.get(node);
    },
    setBootOutcome(node, outcome) {
      store.boots.setOutcome(node, outcome);
    },
  };
}
