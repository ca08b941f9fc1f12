/**
 * In-memory index of `nodelist`: which nodes exist and which static groups each belongs to.
 * Noderange expansion asks "is this a node? a group?" once per name, so these answers must not
 * cost a table scan; the index is rebuilt from SQLite only when `nodelist` or `nodegroup` change
 * (xcat-behavior.md §5.3: group membership *is* `nodelist.groups`).
 */
import type { NoderangeContext } from "../../contract/noderange";
import { compareStrings } from "../../contract/noderange";
import type { Database } from "./database";

interface NodeEntry {
  readonly seq: number;
  readonly groups: readonly string[];
  readonly hidden: boolean;
}

/** Splits a comma-separated xCAT list, dropping blanks. */
export function splitList(value: string | undefined): string[] {
  if (!value) return [];
  return value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export class NodeIndex implements NoderangeContext {
  readonly #db: Database;
  #nodes = new Map<string, NodeEntry>();
  #groups = new Map<string, Set<string>>();
  #definedGroups = new Set<string>();
  #stale = { nodes: true, groups: true };
  #nextSeq = 0;

  constructor(db: Database) {
    this.#db = db;
    db.onChange((table) => {
      if (table === "nodelist") this.#stale.nodes = true;
      if (table === "nodegroup") this.#stale.groups = true;
    });
  }

  #refresh(): void {
    if (this.#stale.nodes) {
      // A full reload is one indexed scan; it runs at most once per write burst, because reads
      // between writes use the cached maps. Per-node creates update incrementally below.
      const nodes = new Map<string, NodeEntry>();
      const groups = new Map<string, Set<string>>();
      let seq = 0;
      for (const row of this.#db.select("nodelist")) {
        const name = row.node;
        if (name === undefined) continue;
        const entry = { seq: seq++, groups: splitList(row.groups), hidden: row.hidden === "1" };
        this.#nextSeq = seq;
        nodes.set(name, entry);
        for (const g of entry.groups) {
          let members = groups.get(g);
          if (!members) {
            members = new Set();
            groups.set(g, members);
          }
          members.add(name);
        }
      }
      this.#nodes = nodes;
      this.#groups = groups;
      this.#stale.nodes = false;
    }
    if (this.#stale.groups) {
      this.#definedGroups = new Set(
        this.#db
          .select("nodegroup")
          .map((r) => r.groupname)
          .filter((g): g is string => g !== undefined && g !== ""),
      );
      this.#stale.groups = false;
    }
  }

  /**
   * Runs a `nodelist` write for one node and updates the maps in place instead of reloading, so
   * creating one node stays O(1) however many nodes exist.
   */
  writeNode(name: string, groupsValue: string | undefined, hidden: boolean, write: () => void): void {
    const wasStale = this.#stale.nodes;
    write();
    if (wasStale) return;
    this.#stale.nodes = false;
    const previous = this.#nodes.get(name);
    if (previous) for (const g of previous.groups) this.#groups.get(g)?.delete(name);
    const entry = { seq: previous?.seq ?? this.#nextSeq++, groups: splitList(groupsValue), hidden };
    this.#nodes.set(name, entry);
    for (const g of entry.groups) {
      let members = this.#groups.get(g);
      if (!members) {
        members = new Set();
        this.#groups.set(g, members);
      }
      members.add(name);
    }
  }

  /** Runs a delete of node rows and drops them from the maps in place. */
  removeNodes(names: readonly string[], write: () => void): void {
    const wasStale = this.#stale.nodes;
    write();
    if (wasStale) return;
    this.#stale.nodes = false;
    for (const name of names) {
      const previous = this.#nodes.get(name);
      if (!previous) continue;
      for (const g of previous.groups) this.#groups.get(g)?.delete(name);
      this.#nodes.delete(name);
    }
  }

  get stale(): boolean {
    return this.#stale.nodes;
  }

  isNode(name: string): boolean {
    this.#refresh();
    return this.#nodes.has(name);
  }

  /** Groups of a node in the order listed in `nodelist.groups`. */
  groupsOf(name: string): readonly string[] {
    this.#refresh();
    return this.#nodes.get(name)?.groups ?? [];
  }

  isHidden(name: string): boolean {
    this.#refresh();
    return this.#nodes.get(name)?.hidden ?? false;
  }

  /** All node names in nodelist order. */
  allNodes(): string[] {
    this.#refresh();
    return [...this.#nodes.keys()];
  }

  isGroup(name: string): boolean {
    this.#refresh();
    return this.#definedGroups.has(name) || (this.#groups.get(name)?.size ?? 0) > 0;
  }

  groupMembers(name: string): readonly string[] | undefined {
    if (!this.isGroup(name)) return undefined;
    const members = [...(this.#groups.get(name) ?? [])];
    return members.sort((a, b) => (this.#nodes.get(a)?.seq ?? 0) - (this.#nodes.get(b)?.seq ?? 0));
  }

  /** The sorted union of defined groups and every group named in `nodelist.groups` (§5.3). */
  allGroups(): string[] {
    this.#refresh();
    const names = new Set(this.#definedGroups);
    for (const [g, members] of this.#groups) if (members.size > 0) names.add(g);
    return [...names].sort(compareStrings);
  }
}
