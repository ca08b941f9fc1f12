/**
 * xCAT's object commands over the tables: lsdef, mkdef, chdef, rmdef (DBobjectdefs.pm,
 * DBobjUtils.pm; xcat-behavior.md §3.2 and §5). They return data or throw CommandError with
 * xCAT's messages; errors after partial work (rmdef of a missing node among existing ones, chdef
 * with an invalid attribute) leave that work done, as xCAT does.
 */

import {
  couldNotFindNode,
  couldNotFindObject,
  FAILED_WITH_UNKNOWN_REASON,
  GROUPS_REQUIRED_ON_CREATE,
  groupsNotSpecified,
  invalidAttributeName,
  invalidObjectName,
  NO_ATTRIBUTES_SPECIFIED,
  NO_OBJECT_DEFINITIONS_TO_DISPLAY,
  netNotSpecified,
  netOrMaskEmpty,
  networkNameExists,
  networkNetMaskExists,
  ONE_OR_MORE_ERRORS,
  onlyIfValueMismatch,
  SKIPPING_TO_NEXT_ATTRIBUTE,
  ZERO_DEFINITIONS_CHANGED,
} from "../../contract/messages";
import { isKnownAttribute, type ObjectType } from "../../contract/schema";
import {
  attributeKnownIn,
  NEWEST_XCAT_VERSION,
  VERSIONED_ATTRIBUTES,
  versionBehaviour,
  type XcatVersion,
} from "../../contract/xcat-versions";
import { type OnlyIfSources, onlyIfHolds, type RowSource, typeMap, writeMappings } from "./attribute-map";
import type { Database } from "./database";
import { CommandError, ErrorList } from "./errors";
import { type NodeIndex, splitList } from "./node-index";
import { withTemplate } from "./node-templates";
import { type ObjectAttributes, type ObjectReader, sortKeys } from "./object-reader";

/** `attr=value` operands in request order; "" clears the attribute (§1.4). */
export type Assignments = ReadonlyArray<readonly [attribute: string, value: string]>;

export interface WriteOptions {
  /** mkdef -f: replace an existing definition. */
  readonly force?: boolean;
  /** mkdef --template: the template's name ("" when the option had no value). */
  readonly template?: string;
}

export class Definitions {
  readonly #db: Database;
  readonly #index: NodeIndex;
  readonly #reader: ObjectReader;
  /** Called with node names whose definitions were removed (simulated hardware is dropped too). */
  readonly #onNodesRemoved: (names: readonly string[]) => void;
  /** The release whose schema and write rules apply (contract/xcat-versions.ts). */
  readonly #version: XcatVersion;

  constructor(
    db: Database,
    index: NodeIndex,
    reader: ObjectReader,
    onNodesRemoved: (names: readonly string[]) => void,
    version: XcatVersion = NEWEST_XCAT_VERSION,
  ) {
    this.#version = version;
    this.#db = db;
    this.#index = index;
    this.#reader = reader;
    this.#onNodesRemoved = onNodesRemoved;
  }

  /** `lsdef -t <type> -s`: names, or the one-message list when there are none (§9.3). */
  list(type: ObjectType): string[] {
    const names = this.#reader.list(type);
    return names.length > 0 ? names : [NO_OBJECT_DEFINITIONS_TO_DISPLAY];
  }

  /**
   * `lsdef -t <type> -o <names>`: every object or a 403 naming the missing ones, never partial
   * data (§9.6). `names` undefined is `-l` (ALLRESOURCES).
   */
  show(type: ObjectType, names: readonly string[] | undefined): Map<string, ObjectAttributes> {
    const wanted = names ?? this.#reader.list(type);
    const missing = wanted.filter((n) => !this.#reader.exists(type, n));
    if (missing.length > 0) throw new CommandError(missing.map((n) => couldNotFindObject(n, type)));
    return this.#reader.read(type, wanted);
  }

  /**
   * `lsdef -i a,b`: each valid attribute, "" when unset (§5.1); site shows only keys that exist.
   * An invalid attribute name fails the whole request.
   */
  showAttributes(type: ObjectType, names: readonly string[] | undefined, attributes: readonly string[]) {
    if (type !== "site") {
      const invalid = attributes.filter(
        (a) => !this.#knows(type, a) && !(type === "group" && a === "members"),
      );
      if (invalid.length > 0) {
        // lsdef checks -i names first and goes on to the objects (DBobjectdefs.pm:4003-4026, then
        // 4078-4084): a missing object adds its line (recorded on the real 2.16.5 and 2.19).
        const missing = (names ?? []).filter((n) => !this.#reader.exists(type, n));
        throw new CommandError([
          ...invalid.map((a) => invalidAttributeName(a, type)),
          ...missing.map((n) => couldNotFindObject(n, type)),
        ]);
      }
    }
    const objects = this.show(type, names);
    const keyAttribute = typeMap(type).keyAttribute;
    const out = new Map<string, ObjectAttributes>();
    for (const [name, attrs] of objects) {
      const picked: ObjectAttributes = {};
      for (const a of attributes) {
        if (a === keyAttribute || a === "objtype") continue;
        const value = attrs[a];
        if (type === "site" && value === undefined) continue;
        picked[a] = value ?? "";
      }
      out.set(name, sortKeys(picked));
    }
    return out;
  }

  /**
   * Whether this release's Schema.pm defines the attribute for the type. The docker attributes of
   * releases before 2.18 are known (lsdef -i answers them) but not stored: the emulator has no
   * `mgt=docker` nodes.
   */
  #knows(type: ObjectType, attribute: string): boolean {
    const versioned = VERSIONED_ATTRIBUTES.some((a) => a.type === type && a.attribute === attribute);
    return (
      (isKnownAttribute(type, attribute) || versioned) && attributeKnownIn(this.#version, type, attribute)
    );
  }

  /** `mkdef`: creates objects; existing ones are skipped with a warning unless forced (§9.4). */
  create(
    type: ObjectType,
    names: readonly string[],
    assignments: Assignments,
    options: WriteOptions = {},
  ): void {
    const filled =
      options.template === undefined
        ? assignments
        : withTemplate(
            options.template,
            type,
            names,
            assignments,
            (name) => this.#reader.read(type, [name]).get(name),
            this.list(type).length > 0,
          );
    this.#write("mkdef", type, names, filled, options);
  }

  /** `chdef`: changes objects, creating the missing ones (§5.1). */
  change(type: ObjectType, names: readonly string[], assignments: Assignments): void {
    this.#write("chdef", type, names, assignments, {});
  }

  /** `rmdef`: removes what exists, then reports what did not (§9.6: deletes are not all-or-nothing). */
  remove(type: ObjectType, names: readonly string[]): void {
    const errors = new ErrorList();
    const existing: string[] = [];
    for (const name of names) {
      if (this.#reader.exists(type, name)) existing.push(name);
      else errors.add(couldNotFindObject(name, type));
    }
    if (existing.length > 0) {
      this.#db.transaction(() => this.#removeRows(type, existing));
    }
    errors.throwIfAny();
  }

  #removeRows(type: ObjectType, names: readonly string[]): void {
    const map = typeMap(type);
    const tables = new Map<string, string>();
    for (const source of map.sources) {
      if (source.nameColumn) tables.set(`${source.table}.${source.nameColumn}`, source.table);
    }
    const remove = () => {
      for (const [key, table] of tables) {
        const column = key.slice(table.length + 1);
        this.#db.deleteIn(table, column, names);
      }
    };
    if (type === "node") {
      this.#index.removeNodes(names, remove);
      this.#onNodesRemoved(names);
    } else {
      remove();
    }
  }

  #write(
    command: "mkdef" | "chdef",
    type: ObjectType,
    names: readonly string[],
    assignments: Assignments,
    options: WriteOptions,
  ): void {
    const current = versionBehaviour(this.#version).failedConditionWritesNothing;
    if (assignments.length === 0) {
      // chdef with no attr=val builds no FINALATTRS entry and ends in its informational summary,
      // which the CGI drops (DBobjectdefs.pm:2417-2474, 3066-3110): nothing changes, no error.
      // mkdef says so as an error and returns 1 (master:…/DBobjectdefs.pm:1699-1716); before
      // 2.18.0 it only printed its summary (the real 2.16.5 answered just that line).
      if (command === "chdef") return;
      if (!current) throw new CommandError([ZERO_DEFINITIONS_CHANGED]);
      throw new CommandError([
        type === "node" ? `${NO_ATTRIBUTES_SPECIFIED} ${GROUPS_REQUIRED_ON_CREATE}` : NO_ATTRIBUTES_SPECIFIED,
        FAILED_WITH_UNKNOWN_REASON,
      ]);
    }
    const errors = new ErrorList();
    const keyAttribute = typeMap(type).keyAttribute;
    const valid: [string, string][] = [];
    for (const [attribute, value] of assignments) {
      const known = type === "group" && attribute === "members" ? true : this.#knows(type, attribute);
      if (!known) errors.add(invalidAttributeName(attribute, type), SKIPPING_TO_NEXT_ATTRIBUTE);
      else if (attribute !== keyAttribute && attribute !== "objtype") valid.push([attribute, value]);
    }
    if (!errors.empty && command === "mkdef" && current) {
      // From 2.18.0 mkdef validates every operand before writing anything and returns 1 without
      // its summary (master:…/DBobjectdefs.pm:1686-1702, commit 2ae97c2ac). Before, the other
      // attributes are written and the summary follows (the real 2.16.5 created the node).
      errors.add(FAILED_WITH_UNKNOWN_REASON);
      errors.throwIfAny();
    }
    const request = new Map(valid);
    let changed = 0;
    const conditionErrors: string[] = [];
    this.#db.transaction(() => {
      const storedObjects = this.#reader.read(type, names);
      for (const name of names) {
        const current = storedObjects.get(name);
        const exists = current !== undefined || (type === "site" && name === "clustersite");
        // A network name in use is an error of its own, -f or not (DBobjectdefs.pm:1776-1786, §9.4).
        if (command === "mkdef" && exists && type === "network") {
          errors.add(networkNameExists(name));
          continue;
        }
        // Other types only warn (dropped) and are skipped unless -f (DBobjectdefs.pm:1815-1823).
        if (command === "mkdef" && exists && !options.force) continue;
        const creating = command === "mkdef" || !exists;
        const stored = command === "mkdef" ? undefined : current;
        const assignments = this.#withDefaults(command, type, creating, stored, request);
        const context = this.#context(type, stored, assignments);
        const sources = this.#onlyIfSources(type, stored, assignments);
        const objectErrors = this.#checkObject(type, name, creating, assignments, context);
        const conditions = conditionOutcome(type, assignments, sources, this.#version);
        if (objectErrors.length > 0 || (conditions.writesNothing && conditions.failures.length > 0)) {
          // setobjdefs skips an object that fails validation: none of its attributes are written.
          errors.add(...objectErrors, ...conditions.failures);
          continue;
        }
        if (conditions.failures.length > 0 || conditions.dropped.length > 0) {
          // Before 2.18.0 the failed (or silently dropped) attributes are left out and the rest
          // is written; the error carries no "One or more errors" line, as setobjdefs still
          // returned 0 (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1214-1236).
          conditionErrors.push(...conditions.failures);
          const skipped = new Set([...conditions.failedAttributes, ...conditions.dropped]);
          const kept = new Map([...assignments].filter(([attribute]) => !skipped.has(attribute)));
          errors.add(...this.#apply(type, name, creating, kept, sources));
          changed++;
          continue;
        }
        // -f removes the old definition only once the new one is known valid, so a refused
        // replacement leaves the object as it was (DBobjectdefs.pm:1825-1826, 1899-1913).
        if (command === "mkdef" && exists && options.force && type !== "site") this.#removeRows(type, [name]);
        errors.add(...this.#apply(type, name, creating, assignments, sources));
        changed++;
      }
    });
    if (!errors.empty) errors.add(ONE_OR_MORE_ERRORS, FAILED_WITH_UNKNOWN_REASON);
    else if (command === "mkdef" && changed === 0) errors.add(ZERO_DEFINITIONS_CHANGED);
    errors.add(...conditionErrors);
    errors.throwIfAny();
  }

  /** chdef gives a new osimage imagetype=NIM (DBdefs 3011-3015); mkdef leaves it unset. */
  #withDefaults(
    command: "mkdef" | "chdef",
    type: ObjectType,
    creating: boolean,
    stored: ObjectAttributes | undefined,
    request: ReadonlyMap<string, string>,
  ): ReadonlyMap<string, string> {
    if (
      type !== "osimage" ||
      !creating ||
      command !== "chdef" ||
      request.has("imagetype") ||
      stored?.imagetype
    )
      return request;
    return new Map([...request, ["imagetype", "NIM"]]);
  }

  /** Where only_if conditions are looked up, each source on its own (see {@link OnlyIfSources}). */
  #onlyIfSources(
    type: ObjectType,
    stored: ObjectAttributes | undefined,
    request: ReadonlyMap<string, string>,
  ): OnlyIfSources {
    const requested = request.get("groups");
    const groups =
      type === "node" && requested !== undefined
        ? [...this.#reader.read("group", splitList(requested), { members: false }).values()]
        : [];
    return { request, stored, groups };
  }

  /**
   * The object's values as they will be: the request over the stored object; for nodes also the
   * values of the groups the node is (or will be) in. Decides required attributes (groups, net,
   * mask), not only_if conditions, which look at each source on its own.
   */
  #context(
    type: ObjectType,
    current: ObjectAttributes | undefined,
    request: ReadonlyMap<string, string>,
  ): Map<string, string> {
    const context = new Map<string, string>();
    if (type === "node") {
      const groups = splitList(request.get("groups") ?? current?.groups);
      const groupObjects = this.#reader.read("group", groups, { members: false });
      for (const g of [...groups].reverse()) {
        for (const [a, v] of Object.entries(groupObjects.get(g) ?? {})) if (v !== "") context.set(a, v);
      }
    }
    for (const [a, v] of Object.entries(current ?? {})) context.set(a, v);
    for (const [a, v] of request) context.set(a, v);
    return context;
  }

  /** Per-object preconditions: names, required attributes, network uniqueness. */
  #checkObject(
    type: ObjectType,
    name: string,
    creating: boolean,
    request: ReadonlyMap<string, string>,
    context: ReadonlyMap<string, string>,
  ): string[] {
    if (type === "node") {
      if (creating && name.includes(".") && !/^\d+\.\d+\.\d+\.\d+$/.test(name))
        return [invalidObjectName(name)];
      if (creating && !context.get("groups")) return [groupsNotSpecified(name)];
    }
    if (type === "network") {
      const net = context.get("net") ?? "";
      const mask = context.get("mask") ?? "";
      if (creating && (!net || !mask)) return [netOrMaskEmpty(name)];
      if (!creating && (!net || !mask)) {
        return [netNotSpecified(!net ? "net" : "mask", name)];
      }
      if (request.has("net") || request.has("mask") || creating) {
        const clash = this.#db.first("networks", { net, mask });
        if (clash && clash.netname !== name) return [networkNetMaskExists(clash.netname ?? "", name)];
      }
    }
    return [];
  }

  /** Writes the attributes of one object that passed validation; returns member errors of groups. */
  #apply(
    type: ObjectType,
    name: string,
    creating: boolean,
    request: ReadonlyMap<string, string>,
    sources: OnlyIfSources,
  ): string[] {
    if (type === "site") {
      for (const [key, value] of request) {
        if (value === "") this.#db.delete("site", { key });
        else this.#db.upsert("site", { key }, { value });
      }
      return [];
    }
    const errors: string[] = [];
    const map = typeMap(type);
    const assignments = new Map(request);
    let members: string[] | undefined;
    if (type === "group") {
      const membersValue = assignments.get("members");
      assignments.delete("members");
      if (membersValue !== undefined) members = splitList(membersValue);
      if (!this.#db.first("nodegroup", { groupname: name })) {
        this.#db.upsert("nodegroup", { groupname: name }, { grouptype: "static" });
      }
    }
    const bySource = new Map<RowSource, Record<string, string | null>>();
    const holds = (attribute: string, value: string) => onlyIfHolds(sources, attribute, value);
    for (const [attribute, value] of assignments) {
      for (const mapping of writeMappings(map.attributes.get(attribute) ?? [], holds)) {
        let values = bySource.get(mapping.source);
        if (!values) {
          values = {};
          bySource.set(mapping.source, values);
        }
        values[mapping.column] = value === "" ? null : value;
      }
    }
    for (const [source, values] of bySource) {
      if (!source.nameColumn) continue;
      const where = { [source.nameColumn]: name, ...source.literals };
      if (type === "node" && source.table === "nodelist") {
        this.#writeNodelist(name, values);
      } else if (type === "network") {
        this.#db.upsert("networks", { netname: name }, values);
      } else {
        this.#db.upsert(source.table, where, values);
      }
    }
    if (type === "node" && creating && ![...bySource.keys()].some((s) => s.table === "nodelist")) {
      this.#writeNodelist(name, {});
    }
    if (members !== undefined) errors.push(...this.#setMembers(name, members));
    return errors;
  }

  #writeNodelist(name: string, values: Record<string, string | null>): void {
    const current = this.#db.first("nodelist", { node: name });
    const groups = values.groups !== undefined ? (values.groups ?? undefined) : current?.groups;
    const hidden = (values.hidden !== undefined ? values.hidden : current?.hidden) === "1";
    this.#index.writeNode(name, groups, hidden, () => {
      this.#db.upsert("nodelist", { node: name }, values);
    });
  }

  /** A group's `members` rewrites the member nodes' `groups` lists (§5.3). */
  #setMembers(group: string, members: readonly string[]): string[] {
    const errors: string[] = [];
    const wanted = new Set<string>();
    for (const node of members) {
      if (this.#index.isNode(node)) wanted.add(node);
      else errors.push(couldNotFindNode(node));
    }
    const currentMembers = this.#index.groupMembers(group) ?? [];
    for (const node of currentMembers) {
      if (wanted.has(node)) continue;
      const groups = this.#index.groupsOf(node).filter((g) => g !== group);
      this.#writeNodelist(node, { groups: groups.join(",") || null });
    }
    for (const node of wanted) {
      const groups = this.#index.groupsOf(node);
      if (groups.includes(group)) continue;
      this.#writeNodelist(node, { groups: [...groups, group].join(",") });
    }
    this.#db.upsert("nodegroup", { groupname: group }, { members: "static" });
    return errors;
  }

  /** The lsdef views of existing nodes, with one batch of queries. */
  read(nodes: readonly string[]): Map<string, ObjectAttributes> {
    return this.#reader.read("node", nodes);
  }

  /** The lsdef view of one object, or undefined when it does not exist. */
  object(type: ObjectType, name: string): ObjectAttributes | undefined {
    return this.#reader.read(type, [name]).get(name);
  }

  /** Every object name of a type (no empty-list message). */
  names(type: ObjectType): string[] {
    return this.#reader.list(type);
  }

  exists(type: ObjectType, name: string): boolean {
    return this.#reader.exists(type, name);
  }
}

/** What a write's only_if conditions do to one object (see {@link conditionOutcome}). */
interface ConditionOutcome {
  /** The release refuses the whole object when a condition fails (2.18.0 and later). */
  readonly writesNothing: boolean;
  /** The error messages, as xCAT prints them. */
  readonly failures: readonly string[];
  /** The attributes those messages are about (left out of the write before 2.18.0). */
  readonly failedAttributes: readonly string[];
  /** Before 2.18.0: attributes left out without a message (see below). */
  readonly dropped: readonly string[];
}

/**
 * The only_if checks of a chdef/mkdef of one object, as the release does them.
 *
 * 2.18.0 and later: DBobjUtils.pm `validate_only_if_attrs` (2.18.2:perl-xCAT/xCAT/DBobjUtils.pm:
 * 2809-2869): an attribute that is stored only under a condition (`bmc` needs mgt=ipmi or openbmc)
 * fails when no condition of it holds in any source and it has no unconditional column; the
 * accepted values are listed sorted (`Cannot set the attr='bmc' attribute unless mgt value is
 * ipmi or openbmc.`) and nothing of the object is written.
 *
 * Before 2.18.0 (2.17.0:perl-xCAT/xCAT/DBobjUtils.pm:1020-1069, 1212-1236): a condition holds on
 * the request or the stored object (with what it inherits) only; the accepted values accumulate
 * per condition attribute over the whole request in the order Schema.pm declares the mappings,
 * duplicates included (bmc and bmcpassword failing: `ipmi or ipmi or openbmc or openbmc`), and
 * each failing attribute gets one message (MsgUtils.pm:427-430 clears the buffer after each; the
 * real 2.16.5 answered exactly two messages for two failures). Their order is Perl's hash order,
 * random per process; the emulator keeps the request's. A failure whose condition a group named
 * in the request satisfies prints nothing (1219-1228) but the attribute is still not written. The
 * other attributes are written.
 */
function conditionOutcome(
  type: ObjectType,
  request: ReadonlyMap<string, string>,
  sources: OnlyIfSources,
  version: XcatVersion,
): ConditionOutcome {
  if (type === "site") return { writesNothing: true, failures: [], failedAttributes: [], dropped: [] };
  const map = typeMap(type);
  const failing = new Map<string, string>();
  const accepted = new Map<string, { position: number; value: string }[]>();
  const current = versionBehaviour(version).failedConditionWritesNothing;
  const own: OnlyIfSources = current ? sources : { ...sources, groups: [] };
  for (const [attribute, mappings] of map.attributes) {
    if (!request.has(attribute)) continue;
    if (mappings.length === 0 || (current && mappings.some((m) => !m.onlyIf))) continue;
    let valid = false;
    for (const { onlyIf, position } of mappings) {
      if (!onlyIf) {
        valid = true;
        continue;
      }
      if (valid) continue;
      if (onlyIfHolds(own, onlyIf.attribute, onlyIf.value)) {
        valid = true;
        continue;
      }
      failing.set(attribute, onlyIf.attribute);
      const values = accepted.get(onlyIf.attribute) ?? [];
      accepted.set(onlyIf.attribute, values);
      if (!current || !values.some((v) => v.value === onlyIf.value))
        values.push({ position, value: onlyIf.value });
    }
    if (valid) failing.delete(attribute);
  }
  const wording = (condition: string) => {
    const values = accepted.get(condition) ?? [];
    return current
      ? values
          .map((v) => v.value)
          .sort()
          .join(" or ")
      : [...values]
          .sort((a, b) => a.position - b.position)
          .map((v) => v.value)
          .join(" or ");
  };
  if (current) {
    return {
      writesNothing: true,
      failures: [...failing].map(([a, c]) => onlyIfValueMismatch(a, c, wording(c))),
      failedAttributes: [...failing.keys()],
      dropped: [],
    };
  }
  const reported: [string, string][] = [];
  const dropped: string[] = [];
  for (const [attribute, condition] of failing) {
    const list = (accepted.get(condition) ?? []).map((v) => v.value).join(",");
    const byGroup = sources.groups.some((group) => {
      const value = group[condition];
      return value !== undefined && value !== "" && list.includes(value);
    });
    if (byGroup) dropped.push(attribute);
    else reported.push([attribute, condition]);
  }
  const failures = reported.map(([a, c]) => onlyIfValueMismatch(a, c, wording(c)));
  return { writesNothing: false, failures, failedAttributes: reported.map(([a]) => a), dropped };
}
