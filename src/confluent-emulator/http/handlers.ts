/**
 * The resource tree the emulator serves, after core.py:1430 handle_path (3.15.6): nodes, node
 * ranges, groups, attributes, power, next boot device, deployment locks and profiles, version.
 * Handlers yield messages (render.ts); failures are ConfluentApiError (handled, with Confluent's
 * text) or PythonError (what Confluent leaves unhandled: a 500 with Python's message).
 */
import {
  CONFLUENT_ATTRIBUTE_ALIASES,
  CONFLUENT_NODE_ATTRIBUTES,
  isUnknownAttributeName,
} from "../../contract/confluent/attributes";
import {
  CONFLUENT_BOOT_DEVICES,
  CONFLUENT_LOCK_STATES,
  CONFLUENT_POWER_STATES,
  confluentMessages,
} from "../../contract/confluent/messages";
import {
  CONFLUENT_DEPLOYMENT_COLLECTIONS,
  CONFLUENT_NODE_RESOURCES,
  CONFLUENT_ROOT_COLLECTIONS,
} from "../../contract/confluent/paths";
import type { ConfluentConfig, WireEntry } from "../store/config-store";
import { badRequest, ConfluentApiError, notFound } from "../store/errors";
import { expandExpression } from "../store/expressions";
import { type HardwareSimulation, NodeHardwareError } from "../store/hardware";
import { inputAttributes, nodeInputAttributes } from "../store/input-attributes";
import { Noderange, NoderangeError, naturalSort } from "../store/noderange";
import { PythonError } from "../store/python-format";
import type { Message } from "./render";

export type Operation = "retrieve" | "create" | "update" | "delete";

export interface HandlerContext {
  readonly config: ConfluentConfig;
  readonly hardware: HardwareSimulation;
  readonly version: string;
}

const data = (d: Record<string, unknown>): Message => ({ data: d });
const item = (href: string): Message => ({ item: href });

/** A per-node message: flat for /nodes/<n>/..., under databynode for a noderange (messages.py:135 raw). */
function perNode(node: string, kv: Record<string, unknown>, isNoderange: boolean): Message {
  return data(isNoderange ? { databynode: { [node]: kv } } : kv);
}

function requireBody(input: Record<string, unknown>): void {
  if (Object.keys(input).length === 0) throw badRequest(confluentMessages.noRequestData);
}

export function handlePath(
  path: string,
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
): Message[] {
  const parts = path.split("/").slice(1);
  if (parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0) return CONFLUENT_ROOT_COLLECTIONS.map(item);
  switch (parts[0]) {
    case "nodes":
    case "noderange":
      return handleNodes(parts, operation, input, ctx);
    case "nodegroups":
      return handleGroups(parts, operation, input, ctx);
    case "deployment":
      return handleDeployment(parts, operation, ctx);
    case "version":
      return [data({ version: { value: ctx.version } })];
    default:
      throw notFound();
  }
}

// ---- nodes and node ranges (core.py:1019 handle_node_request) --------------------------------

function expandRange(ctx: HandlerContext, range: string): string[] {
  try {
    return naturalSort(ctx.config.noderange().expand(range));
  } catch (error) {
    if (error instanceof NoderangeError) throw notFound(confluentMessages.invalidNoderange(error.message));
    throw error;
  }
}

function handleNodes(
  parts: string[],
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
): Message[] {
  let path = parts;
  let isNoderange = path[0] === "noderange";
  if (isNoderange && path.length > 3 && path[2] === "nodes") {
    // /noderange/<nr>/nodes/<n>/... is a plain node request.
    isNoderange = false;
    path = path.slice(2);
  } else if (isNoderange && path.length === 3 && path[2] === "abbreviate") {
    return abbreviate(operation, input, ctx);
  }
  const target = path[1];
  if (target === undefined) {
    if (isNoderange && operation === "retrieve") return [];
    if (isNoderange && operation === "create") return createNodes(input, ctx, true);
    if (isNoderange || operation === "delete") throw badRequest();
    if (operation === "create") return createNodes(input, ctx, false);
    return ctx.config.nodeNames().map((n) => item(`${n}/`));
  }
  let nodes: string[];
  if (!isNoderange) {
    if (!ctx.config.isNode(target)) throw notFound(confluentMessages.invalidNode);
    nodes = [target];
  } else nodes = expandRange(ctx, target);
  if (isNoderange && path.length === 3 && path[2] === "nodes") return nodes.map((n) => item(`${n}/`));
  if (path.length === 2) {
    if (operation === "delete") {
      ctx.config.deleteNodes(nodes);
      return nodes.map((n) => data({ deleted: n }));
    }
    if (operation === "retrieve") {
      return isNoderange
        ? [...CONFLUENT_NODE_RESOURCES.map(item), item("nodes/"), item("abbreviate")]
        : CONFLUENT_NODE_RESOURCES.map(item);
    }
    throw new PythonError("TODO here");
  }
  const rest = path.slice(2).join("/");
  switch (rest) {
    case "attributes":
      return [item("all"), item("current"), item("expression"), item("check"), item("rename")];
    case "attributes/current":
    case "attributes/all":
      return nodeAttributes(
        nodes,
        rest.endsWith("all") ? "all" : "current",
        operation,
        input,
        ctx,
        isNoderange,
      );
    case "attributes/expression":
      return expression(nodes, operation, input, ctx, isNoderange);
    case "power/state":
      return power(nodes, operation, input, ctx, isNoderange);
    case "boot/nextdevice":
      return nextDevice(nodes, operation, input, ctx, isNoderange);
    case "deployment/lock":
      return lock(nodes, operation, input, ctx, isNoderange);
    default:
      throw notFound(confluentMessages.invalidElement);
  }
}

/** core.py:807 create_node / :823 create_noderange. */
function createNodes(input: Record<string, unknown>, ctx: HandlerContext, isNoderange: boolean): Message[] {
  requireBody(input);
  const attrs = inputAttributes(input);
  const name = attrs.name;
  if (typeof name !== "string") throw badRequest(confluentMessages.nameNotSpecified);
  if (!isNoderange && name.includes(" ")) throw badRequest(confluentMessages.nameNotSupported(name));
  delete attrs.name;
  let names: string[];
  if (isNoderange) {
    try {
      names = [...new Noderange().expand(name)];
    } catch (error) {
      throw new PythonError((error as Error).message);
    }
  } else names = [name];
  const updates: Record<string, Record<string, unknown>> = {};
  for (const node of names) updates[node] = { ...attrs };
  ctx.config.setNodeAttributes(updates, true);
  return names.map((n) => data({ created: n }));
}

function attributeMessages(
  node: string,
  entries: Array<[string, WireEntry]>,
  isNoderange: boolean,
): Message[] {
  return entries.map(([attribute, value]) => perNode(node, { [attribute]: value }, isNoderange));
}

/** plugins/configuration/attributes.py retrieve_nodes / update_nodes. */
function nodeAttributes(
  nodes: string[],
  view: "current" | "all",
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
  isNoderange: boolean,
): Message[] {
  if (operation === "update") {
    requireBody(input);
    updateNodes(nodes, input, ctx);
  } else if (operation !== "retrieve") {
    throw new PythonError(`'module' object has no attribute '${operation}'`.replace("module", "function"));
  }
  const out: Message[] = [];
  for (const node of nodes) {
    out.push(
      ...attributeMessages(
        node,
        view === "all" ? ctx.config.nodeAll(node) : ctx.config.nodeCurrent(node),
        isNoderange,
      ),
    );
  }
  return out;
}

function updateNodes(nodes: string[], body: Record<string, unknown>, ctx: HandlerContext): void {
  if (nodes.length === 0) {
    throw badRequest(
      "No action to take, noderange is empty (if trying to define group attributes, use nodegroupattrib)",
    );
  }
  const given = nodeInputAttributes(body);
  for (const node of nodes) {
    if ("deployment.lock" in given) throw badRequest(confluentMessages.lockByApiOnly);
    if ("deployment.pendingprofile" in given || "deployment.apiarmed" in given) {
      const lock = ctx.config.resolveNode(node)?.["deployment.lock"];
      if (lock?.kind === "value" && lock.value === "locked")
        throw badRequest(confluentMessages.lockedDeployment);
    }
  }
  const updates: Record<string, Record<string, unknown>> = {};
  const clears: Record<string, string[]> = {};
  for (const node of nodes) {
    const set: Record<string, unknown> = {};
    const clear: string[] = [];
    for (const [attribute, value] of Object.entries(given)) {
      if (value !== null) {
        set[attribute] = value;
        continue;
      }
      const real = CONFLUENT_ATTRIBUTE_ALIASES[attribute] ?? attribute;
      if (real.includes("*")) clear.push(...ctx.config.ownAttributesMatching(node, real));
      else if (real in CONFLUENT_NODE_ATTRIBUTES || real.startsWith("custom.") || real.startsWith("net."))
        clear.push(real);
      else if (isUnknownAttributeName(real)) {
        throw badRequest(`No attribute matches '${attribute}' (try wildcard if trying to clear a group)`);
      } else clear.push(real);
    }
    updates[node] = set;
    clears[node] = clear;
  }
  // Clears happen per node before the sets (attributes.py:335), the sets all at once.
  for (const node of nodes) ctx.config.clearNodeAttributes(node, clears[node] ?? []);
  ctx.config.setNodeAttributes(updates, false);
}

/** plugins/configuration/attributes.py:196 _expand_expression. */
function expression(
  nodes: string[],
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
  isNoderange: boolean,
): Message[] {
  requireBody(input);
  if (operation !== "create") throw new PythonError("'NoneType' object is not iterable");
  if (nodes.length === 0) throw badRequest("Specified noderange contains no nodes");
  const expr = input.expression;
  if (typeof expr !== "string") throw new PythonError("expected string or bytes-like object");
  const out: Message[] = [];
  for (const node of nodes) {
    const resolved = ctx.config.resolveNode(node) ?? {};
    let value: string;
    try {
      value = expandExpression(expr, {
        nodeName: node,
        has: (a) => a in resolved,
        lookup: (a) => {
          const e = resolved[a];
          if (e?.kind !== "value") return undefined;
          return e.broken !== undefined ? { broken: e.broken } : { value: e.value };
        },
      });
    } catch (error) {
      const message = (error as Error).message;
      // SyntaxError and ValueError are reported as bad syntax; other exceptions are not handled.
      if (/^(expected '}'|Single '|invalid syntax|.* is not a valid attribute name|Invalid )/.test(message)) {
        throw badRequest(confluentMessages.badExpression(message));
      }
      throw error;
    }
    out.push(perNode(node, { value }, isNoderange));
  }
  return out;
}

/** Runs a hardware action per node: one node's failure is the answer's status; in a range, an entry. */
function perNodeHardware(
  nodes: string[],
  isNoderange: boolean,
  action: (node: string) => Record<string, unknown>,
): Message[] {
  const out: Message[] = [];
  for (const node of nodes) {
    try {
      out.push(perNode(node, action(node), isNoderange));
    } catch (error) {
      if (!(error instanceof NodeHardwareError)) throw error;
      if (!isNoderange) throw error.toApiError();
      out.push(data({ databynode: { [node]: { error: error.nodeMessage, errorcode: error.errorcode } } }));
    }
  }
  return out;
}

/** messages.py:994 ConfluentInputMessage: `{key: v}` for all, or `{node: {key: v}}` per node. */
function inputByNode(
  nodes: string[],
  input: Record<string, unknown>,
  key: string,
  valid: readonly string[],
): Record<string, string> {
  if (Object.keys(input).length === 0) throw badRequest(confluentMessages.missingInputData);
  const byNode: Record<string, string> = {};
  const check = (datum: Record<string, unknown>) => {
    if (!(key in datum)) throw badRequest(`missing ${key} argument`);
    const v = datum[key];
    if (typeof v !== "string" || !valid.includes(v))
      throw badRequest(confluentMessages.notOneOf(String(v), valid));
    return v;
  };
  if (key in input) {
    const v = check(input);
    for (const node of nodes) byNode[node] = v;
    return byNode;
  }
  for (const node of nodes) {
    const datum = input[node];
    if (datum === undefined) throw badRequest(confluentMessages.notInRequest(node));
    byNode[node] = check(datum as Record<string, unknown>);
  }
  return byNode;
}

function power(
  nodes: string[],
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
  isNoderange: boolean,
): Message[] {
  if (operation === "retrieve") {
    return perNodeHardware(nodes, isNoderange, (node) => ({ state: { value: ctx.hardware.power(node) } }));
  }
  if (operation !== "update") throw badRequest();
  const wanted = inputByNode(nodes, input, "state", CONFLUENT_POWER_STATES);
  return perNodeHardware(nodes, isNoderange, (node) => {
    const answer = ctx.hardware.setPower(node, wanted[node] as string);
    return {
      state: { value: answer.state },
      ...(answer.oldstate ? { oldstate: { value: answer.oldstate } } : {}),
    };
  });
}

function nextDevice(
  nodes: string[],
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
  isNoderange: boolean,
): Message[] {
  if (operation === "retrieve") {
    return perNodeHardware(nodes, isNoderange, (node) => {
      const d = ctx.hardware.nextDevice(node);
      return {
        nextdevice: { value: d.nextdevice },
        bootmode: { value: d.bootmode },
        persistent: { value: d.persistent },
      };
    });
  }
  if (operation !== "update") throw badRequest();
  if (Object.keys(input).length === 0) throw badRequest();
  const device = inputByNode(nodes, input, "nextdevice", CONFLUENT_BOOT_DEVICES);
  const persistent = input.persistent === true;
  return perNodeHardware(nodes, isNoderange, (node) => {
    ctx.hardware.setNextDevice(node, device[node] as string, persistent);
    // The ipmi plugin answers with what it set and bootmode "unspecified" (recorded).
    return {
      nextdevice: { value: device[node] },
      bootmode: { value: "unspecified" },
      persistent: { value: persistent },
    };
  });
}

/** plugins/configuration/attributes.py:104 (read) and :258 update_locks. */
function lock(
  nodes: string[],
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
  isNoderange: boolean,
): Message[] {
  if (operation === "update") {
    const wanted = inputByNode(nodes, input, "lock", CONFLUENT_LOCK_STATES);
    for (const node of nodes)
      ctx.config.setNodeAttributes({ [node]: { "deployment.lock": wanted[node] } }, false);
    return nodes.map((node) => perNode(node, { lock: { value: wanted[node] } }, isNoderange));
  }
  return nodes.map((node) => {
    const entry = ctx.config.resolveNode(node)?.["deployment.lock"];
    const value =
      entry?.kind === "value" && (entry.value === "locked" || entry.value === "autolock")
        ? entry.value
        : "unlocked";
    return perNode(node, { lock: { value } }, isNoderange);
  });
}

/** core.py:876 abbreviate_noderange with noderange.py:205 ReverseNodeRange (simplified: see coverage doc). */
function abbreviate(operation: Operation, input: Record<string, unknown>, ctx: HandlerContext): Message[] {
  if (operation !== "create") throw badRequest("Must be a create with nodes in list");
  if (!("nodes" in input)) throw badRequest("Must be given list of nodes under key named nodes");
  const given = typeof input.nodes === "string" ? input.nodes.split(",") : (input.nodes as string[]);
  let remaining = new Set(given);
  const groups = ctx.config.db
    .allGroups()
    .sort((a, b) => a.nodes.length - b.nodes.length)
    .reverse();
  const chosen: string[] = [];
  for (const g of groups) {
    if (g.nodes.length === 0 || g.nodes.length > remaining.size) continue;
    if (g.nodes.every((n) => remaining.has(n))) {
      chosen.push(g.name);
      remaining = new Set([...remaining].filter((n) => !g.nodes.includes(n)));
      if (remaining.size === 0) break;
    }
  }
  const ranges = [...naturalSort(chosen), ...bracketRuns(naturalSort(remaining))];
  return [data({ noderange: ranges.join(",") })];
}

/** Runs of names that differ in their last number, written `prefix[a:b,c]` (noderange.py Bracketer, simplified). */
function bracketRuns(nodes: string[]): string[] {
  const byTemplate = new Map<string, Array<{ name: string; num: string }>>();
  const plain: string[] = [];
  for (const name of nodes) {
    const m = /^(.*?)(\d+)(\D*)$/.exec(name);
    if (!m) {
      plain.push(name);
      continue;
    }
    const key = `${m[1]}\u0000${m[3]}`;
    const list = byTemplate.get(key) ?? [];
    list.push({ name, num: m[2] ?? "" });
    byTemplate.set(key, list);
  }
  const out = [...plain];
  for (const [key, list] of byTemplate) {
    if (list.length === 1) {
      out.push((list[0] as { name: string }).name);
      continue;
    }
    const [prefix, suffix] = key.split("\u0000");
    const runs: string[] = [];
    let start = list[0] as { num: string };
    let prev = start;
    for (const entry of [...list.slice(1), undefined]) {
      if (entry && Number(entry.num) === Number(prev.num) + 1) {
        prev = entry;
        continue;
      }
      runs.push(start === prev ? start.num : `${start.num}:${prev.num}`);
      if (entry) start = prev = entry;
    }
    out.push(`${prefix}[${runs.join(",")}]${suffix}`);
  }
  return out;
}

// ---- groups (core.py:846 handle_nodegroup_request) --------------------------------------------

function handleGroups(
  parts: string[],
  operation: Operation,
  input: Record<string, unknown>,
  ctx: HandlerContext,
): Message[] {
  const group = parts[1];
  if (group === undefined) {
    if (operation === "create") {
      requireBody(input);
      const attrs = inputAttributes(input);
      const name = attrs.name;
      if (typeof name !== "string") throw badRequest();
      delete attrs.name;
      ctx.config.setGroupAttributes(name, attrs, true);
      return [data({ created: name })];
    }
    return ctx.config.groupNames().map((g) => item(`${g}/`));
  }
  if (parts.length === 2) {
    if (operation === "delete") {
      ctx.config.deleteGroup(group);
      return [data({ deleted: group })];
    }
    if (operation === "retrieve") {
      if (!ctx.config.isGroup(group)) throw notFound(confluentMessages.invalidNodegroup(group));
      return [item("attributes/")];
    }
    throw new PythonError("TODO");
  }
  const rest = parts.slice(2).join("/");
  if (rest === "attributes") return [item("all"), item("current"), item("check"), item("rename")];
  if (rest !== "attributes/current" && rest !== "attributes/all" && rest !== "attributes/check") {
    throw notFound(confluentMessages.invalidElement);
  }
  if (!ctx.config.isGroup(group)) throw notFound(confluentMessages.invalidNodegroup(group));
  if (rest === "attributes/check") {
    // attributes.py:178: raises only when a checked value equals the current one... of a plain
    // value; a secret's stored form never equals the text, so a check of a secret always passes.
    requireBody(input);
    return [];
  }
  if (operation === "update") {
    requireBody(input);
    const attrs = inputAttributes(input);
    const clears = Object.keys(attrs).filter((a) => attrs[a] === null);
    for (const a of clears) delete attrs[a];
    if (clears.length > 0) ctx.config.clearGroupAttributes(group, clears);
    ctx.config.setGroupAttributes(group, attrs, false);
  } else if (operation !== "retrieve") {
    throw new PythonError(
      `module 'confluent.plugins.configuration.attributes' has no attribute '${operation}'`,
    );
  }
  const entries = rest.endsWith("all") ? ctx.config.groupAll(group) : ctx.config.groupCurrent(group);
  return entries.map(([attribute, value]) => data({ [attribute]: value }));
}

// ---- deployment (core.py:186 handle_deployment) ------------------------------------------------

function handleDeployment(parts: string[], operation: Operation, ctx: HandlerContext): Message[] {
  if (parts.length === 1) return CONFLUENT_DEPLOYMENT_COLLECTIONS.map(item);
  if (parts[1] === "profiles") {
    const profiles = ctx.config.db.profiles();
    if (parts.length === 2 && operation === "retrieve") return profiles.map((p) => item(`${p.name}/`));
    const name = parts[2] ?? "";
    if (parts.length === 4 && parts[3] === "info" && operation === "retrieve") {
      const profile = profiles.find((p) => p.name === name);
      if (!profile) {
        throw new PythonError(
          `[Errno 2] No such file or directory: '/var/lib/confluent/public/os/${name}/profile.yaml'`,
        );
      }
      return [data({ ...profile.info, name })];
    }
  }
  if (parts[1] === "distributions" && parts.length === 2 && operation === "retrieve") return [];
  throw notFound(confluentMessages.unrecognizedRequest);
}

export { ConfluentApiError, PythonError };
