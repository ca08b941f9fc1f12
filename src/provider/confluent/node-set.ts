/**
 * `xcat:NodeSet` on the Confluent backend: the same per-node truth as on xCAT (resources/node-set.ts
 * checks the inputs, node-set-plan.ts plans per node), on Confluent's noderange API, in xCAT's
 * attribute names translated as a `Node`'s are (xcat-values.ts; `xcat:confluentOmit` leaves
 * attributes out as it does for a Node).
 *
 * What Confluent makes each step cost (xcat2/confluent 3.15.6, cited per line below):
 * - a value common to the nodes is one `PUT /noderange/<nodes>/attributes/current`, whose answer is
 *   every node's attributes after the change (real-confluent.md item 11), so an image roll of a
 *   rack is 1 request and reads nothing back;
 * - nodes whose values are all equal are created with one `POST /noderange/` (core.py:823-837
 *   create_noderange gives every node of the range the same attributes); a node with values of
 *   its own (ip, mac) is its own `POST /nodes/`: Confluent has no per-node body for attributes
 *   (messages.py:843-844 InputAttributes gives each node of the range the same input);
 * - rows removed, and the set's delete, are one `DELETE /noderange/<nodes>`; a range naming a node
 *   that is gone fails whole and deletes nothing (item 12), so then the nodes that exist are
 *   listed (`GET /noderange/everything/nodes/`) and deleted in one request;
 * - a refresh reads the set in one `GET /noderange/<nodes>/attributes/current`, sets read at once
 *   share requests (client node-reads.ts); a set with a node deleted by hand is read node by node.
 *
 * Name services (makehosts, makedns, makedhcp) are xCAT commands: on Confluent a NodeSet sends
 * none, as a Node on Confluent sends none.
 */

import type { ConfluentClient, NodeAttributes } from "../../client/confluent";
import { isNotFound } from "../../client/errors";
import {
  confluentValueOf,
  mappingOfXcat,
  reasonWithoutCounterpart,
} from "../../contract/confluent/xcat-attribute-map";
import { adoptionChanges } from "../attributes";
import { compactNoderange } from "../node-batches";
import { type NodeSetCreation, planNodeSetCreation } from "../node-set-creation";
import {
  heldRows,
  mergedWrites,
  type NodeSetPlan,
  type NodeSetValues,
  nodeSetChanges,
  nodeValues,
  planNodeSetUpdate,
  removedRows,
} from "../node-set-plan";
import { reportsOfOutputs } from "../node-set-reports";
import type { NodeRows } from "../node-set-rows";
import { processSettings } from "../process-context";
import { sayLine } from "../provider-lines";
import {
  hasUnknown,
  inputsOfOutputs,
  type NodeSetInputs,
  type NodeSetOutputs,
  nodeSetSpec,
  outputsOf,
  releasedOf,
} from "../resources/node-set";
import { settingName } from "../setting-advice";
import {
  type CheckOutcome,
  type OperationContext,
  PartialFailureError,
  ResourceConflictError,
  type ResourceSpec,
} from "../spec";
import { type InputFailure, isUnknown } from "../validation";
import { leaveOutAdvice } from "./attribute-objects";
import { ensureGroups, removeEmptyGroups } from "./node-groups";
import { fromConfluent, toConfluent } from "./xcat-values";

const KIND = "xcat:NodeSet";

/**
 * Nodes per request: a noderange is part of the URL path, which servers bound (as the client's
 * read batcher, node-reads.ts).
 */
const MAX_NODES = 200;

function chunks(nodes: readonly string[]): string[][] {
  const out: string[][] = [];
  for (let start = 0; start < nodes.length; start += MAX_NODES)
    out.push(nodes.slice(start, start + MAX_NODES));
  return out;
}

/** How a message names the set: `xcat:NodeSet 'r01n[01-04]'`. */
function named(rows: unknown): string {
  if (isUnknown(rows) || typeof rows !== "object" || rows === null) return `${KIND} '(known after apply)'`;
  return `${KIND} '${compactNoderange(Object.keys(rows))}'`;
}

// ---- check ------------------------------------------------------------------------------------

/**
 * The xCAT check, then what Confluent cannot hold: an attribute (common or a column) with no
 * Confluent counterpart fails naming it, unless `xcat:confluentOmit` leaves it out (said once per
 * preview, as for a Node); a value that does not translate fails naming the node and column.
 */
function check(news: Readonly<Record<string, unknown>>): CheckOutcome<NodeSetInputs> {
  const outcome = nodeSetSpec.check(news);
  if ("failures" in outcome) return outcome;
  const inputs = outcome.inputs;
  const { confluentOmit, origin } = processSettings();
  const omit = new Set(confluentOmit);
  const who = named(inputs.rows);
  const rowsProperty = news.csv !== undefined ? "csv" : "rows";
  const failures: InputFailure[] = [];
  const omitted = new Set<string>();
  const refused = new Set<string>();
  const counterpart = (attribute: string, property: string): boolean => {
    if (omit.has(attribute)) {
      omitted.add(attribute);
      return false;
    }
    if (mappingOfXcat(attribute) !== undefined) return true;
    if (!refused.has(attribute)) {
      refused.add(attribute);
      failures.push({
        property,
        reason:
          `${who}: attribute '${attribute}' has no counterpart on Confluent: ${reasonWithoutCounterpart(attribute)}. ` +
          `To leave it out, ${leaveOutAdvice(attribute, confluentOmit, origin)}`,
      });
    }
    return false;
  };
  const translates = (attribute: string, value: string, property: string, where: string) => {
    const mapping = mappingOfXcat(attribute);
    if (mapping === undefined || isUnknown(value)) return;
    const translated = confluentValueOf(mapping, value);
    if ("problem" in translated)
      failures.push({
        property,
        reason: `${who}: ${where} cannot be set on Confluent's ${mapping.confluent}: ${translated.problem}`,
      });
  };
  for (const [attribute, value] of Object.entries(inputs.attributes)) {
    if (counterpart(attribute, "attributes"))
      translates(attribute, value, "attributes", `attributes.${attribute}`);
  }
  if (!isUnknown(inputs.rows)) {
    for (const [node, row] of Object.entries(inputs.rows)) {
      for (const [attribute, value] of Object.entries(row)) {
        if (counterpart(attribute, rowsProperty))
          translates(attribute, value, rowsProperty, `node '${node}', column '${attribute}'`);
      }
    }
  }
  if (failures.length > 0) return { failures };
  if (omitted.size === 0) return { inputs };
  sayLine(
    `${who}: left out on Confluent (${settingName("confluentOmit", origin)}): ${[...omitted].join(", ")}`,
  );
  const kept = (values: Readonly<Record<string, string>>) =>
    Object.fromEntries(Object.entries(values).filter(([attribute]) => !omitted.has(attribute)));
  return {
    inputs: {
      ...inputs,
      attributes: kept(inputs.attributes),
      rows: Object.fromEntries(Object.entries(inputs.rows).map(([node, row]) => [node, kept(row)])),
    },
  };
}

// ---- reads ------------------------------------------------------------------------------------

/**
 * What each node holds, in xCAT's names matched against what the set declares for it; the map
 * lacks the nodes Confluent does not have. Reads of every set at the same time share requests
 * (the client's read batcher merges them into noderange GETs).
 */
async function readNodes(
  client: ConfluentClient,
  set: NodeSetValues,
  nodes: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  return heldBy(set, await client.nodes.getEach(nodes));
}

function heldBy(
  set: NodeSetValues,
  read: Iterable<readonly [string, NodeAttributes | undefined]>,
): Map<string, Record<string, string>> {
  const held = new Map<string, Record<string, string>>();
  for (const [node, attributes] of read)
    if (attributes !== undefined) held.set(node, fromConfluent(attributes, nodeValues(set, node)));
  return held;
}

// ---- writes -----------------------------------------------------------------------------------

/**
 * Sets the same change on several nodes, one PUT per up to 200 names, and returns what each node
 * holds after it (the PUT's answer, item 11). A group the change names is made first if missing.
 */
async function writeNodes(
  client: ConfluentClient,
  set: NodeSetValues,
  nodes: readonly string[],
  changes: Readonly<Record<string, string>>,
): Promise<Map<string, Record<string, string>>> {
  const sent = toConfluent(changes);
  await ensureGroups(client, sent);
  const after = new Map<string, Record<string, string>>();
  for (const part of chunks(nodes)) {
    for (const [node, values] of heldBy(set, await client.nodes.updateMany(part, sent)))
      after.set(node, values);
  }
  return after;
}

/**
 * Deletes the nodes with one DELETE of their range. When a node is already gone Confluent fails
 * the range whole and deletes nothing (item 12): then the nodes that are left are found with one
 * listing and deleted with one more DELETE.
 */
async function deleteNodes(client: ConfluentClient, nodes: readonly string[]): Promise<void> {
  for (const part of chunks(nodes)) {
    try {
      await client.nodes.deleteMany(part);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      const existing = new Set(await client.nodes.list("everything"));
      const left = part.filter((node) => existing.has(node));
      if (left.length > 0) await client.nodes.deleteMany(left);
    }
  }
}

/**
 * Plans the creation of `nodes`: reads those that exist (one request, or node by node when one
 * is gone), then node-set-creation.ts decides what is taken, adopted or refused, before anything is written.
 */
async function planCreation(
  client: ConfluentClient,
  set: NodeSetInputs,
  nodes: readonly string[],
  context: OperationContext | undefined,
): Promise<NodeSetCreation> {
  const existing = nodes.length === 0 ? new Map() : await readNodes(client, set, nodes);
  return planNodeSetCreation(set, nodes, existing, "on Confluent", context?.replacing === true);
}

/**
 * Adopts and creates as planned: adoptions merged by equal change; new nodes with equal values
 * in one `POST /noderange/`, a node with values of its own in its own `POST /nodes/`.
 */
async function applyCreation(
  client: ConfluentClient,
  set: NodeSetInputs,
  creation: NodeSetCreation,
): Promise<void> {
  for (const node of creation.adoptions.keys()) {
    const shown = adoptionChanges(nodeValues(set, node), creation.existing.get(node) ?? {}, []);
    sayLine(
      `pulumi-xcat: adopting the node '${node}': ${Object.entries(shown)
        .map(([attribute, change]) => `${attribute}: ${change}`)
        .join(", ")}`,
    );
  }
  for (const write of mergedWrites(creation.adoptions))
    await writeNodes(client, set, write.nodes, write.changes);
  const { missing } = creation;
  if (missing.length === 0) return;
  // A blank value sets nothing on a node that does not exist yet.
  const bodies = new Map(
    missing.map((node) => [
      node,
      Object.fromEntries(Object.entries(nodeValues(set, node)).filter(([, value]) => value !== "")),
    ]),
  );
  const creates = mergedWrites(bodies).flatMap((write) =>
    chunks(write.nodes).map((nodes) => ({ ...write, nodes })),
  );
  const sentGroups = new Set<string>();
  for (const { changes } of creates) {
    const groups = toConfluent({ groups: changes.groups ?? "" }).groups;
    if (Array.isArray(groups)) for (const group of groups) sentGroups.add(group);
  }
  await ensureGroups(client, { groups: [...sentGroups] });
  const results = await Promise.allSettled(
    creates.map(({ nodes, changes }) => {
      const sent = toConfluent(changes);
      const [only] = nodes;
      return nodes.length === 1 && only !== undefined
        ? client.nodes.create(only, sent)
        : client.nodes.createMany(nodes, sent);
    }),
  );
  const failed = results.flatMap((result, index) =>
    result.status === "rejected"
      ? [{ nodes: creates[index]?.nodes ?? [], reason: result.reason as unknown }]
      : [],
  );
  if (failed.length > 0) {
    const count = failed.reduce((sum, { nodes }) => sum + nodes.length, 0);
    const reasons = failed
      .slice(0, 5)
      .map(
        ({ nodes, reason }) =>
          `${compactNoderange(nodes)}: ${reason instanceof Error ? reason.message : String(reason)}`,
      );
    throw new Error(
      `creating ${count} of ${missing.length} nodes failed (${reasons.join("; ")}${failed.length > 5 ? "; ..." : ""})`,
    );
  }
}

/**
 * Runs the writes of a create or update and reports what the server holds after them; when a
 * write fails after others went through, records what Confluent now holds (one read of the set)
 * so the next up continues from there.
 */
async function recordingWhatHappened(
  client: ConfluentClient,
  id: string,
  inputs: NodeSetInputs,
  operation: string,
  writes: () => Promise<void>,
  report: () => Promise<ReadonlyMap<string, Record<string, string>>>,
): Promise<NodeSetOutputs> {
  const names = Object.keys(inputs.rows);
  try {
    await writes();
  } catch (error) {
    const held = await readNodes(client, inputs, names);
    const reason = error instanceof Error ? error.message : String(error);
    throw new PartialFailureError(
      `${KIND}: the ${operation} of ${compactNoderange(names)} on Confluent stopped: ${reason}. The state ` +
        "records what Confluent holds now; run up again to finish.",
      id,
      outputsOf(inputs, heldRows(inputs, held), held),
    );
  }
  return outputsOf(inputs, inputs.rows, await report());
}

/**
 * What each node holds after an update, read only where that is not known: a node written
 * reports the PUT's answer (what Confluent holds after the change, item 11); a node not written
 * keeps what was recorded of it (as a `Node` the engine does not update keeps its outputs); a
 * node created, adopted, or without a record is read (one GET for all of them).
 */
async function reportAfterUpdate(
  client: ConfluentClient,
  olds: NodeSetOutputs,
  news: NodeSetInputs,
  plan: NodeSetPlan,
  written: ReadonlyMap<string, Record<string, string>>,
): Promise<Map<string, Record<string, string>>> {
  const recorded: Readonly<Record<string, unknown>> = reportsOfOutputs(olds);
  const added = new Set(plan.added);
  const sentTo = new Set(plan.writes.flatMap((write) => write.nodes));
  const reported = new Map<string, Record<string, string>>();
  const toRead: string[] = [];
  for (const node of Object.keys(news.rows)) {
    const after = written.get(node);
    const before = recorded[node];
    if (added.has(node)) toRead.push(node);
    else if (after !== undefined) reported.set(node, after);
    // Written, but not in the answer: what it holds now is not known without a read.
    else if (sentTo.has(node)) toRead.push(node);
    else if (typeof before === "object" && before !== null)
      reported.set(node, before as Record<string, string>);
    else toRead.push(node);
  }
  for (const [node, values] of await readNodes(client, news, toRead)) reported.set(node, values);
  return reported;
}

export const confluentNodeSetSpec: ResourceSpec<NodeSetInputs, NodeSetOutputs, ConfluentClient> = {
  kind: KIND,
  check,

  // Nothing replaces the set: rows come and go node by node.
  replaceKeys: () => [],

  hasChanges(olds, news) {
    if (hasUnknown(news)) return true;
    return nodeSetChanges(olds, news);
  },

  async create(client, inputs, context) {
    const names = Object.keys(inputs.rows).sort();
    const id = compactNoderange(names);
    const creation = await planCreation(client, inputs, names, context);
    const outputs = await recordingWhatHappened(
      client,
      id,
      inputs,
      "create",
      () => applyCreation(client, inputs, creation),
      () => readNodes(client, inputs, names),
    );
    return { id, outputs };
  },

  async announceSideEffects(_client, olds, inputs) {
    if (olds === undefined || hasUnknown(inputs) || hasUnknown(olds)) return;
    const { released } = releasedOf(inputs, removedRows(olds, inputs));
    for (const node of released)
      sayLine(
        `${KIND}: releases the node '${node}': its row leaves the set, the node stays on Confluent as it is`,
      );
  },

  async adoptChanges(client, inputs) {
    if (!inputs.adopt || hasUnknown(inputs)) return undefined;
    const existing = await readNodes(client, inputs, Object.keys(inputs.rows));
    if (existing.size === 0) return undefined;
    const changes: Record<string, string> = {};
    for (const [node, reported] of [...existing].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const own = adoptionChanges(nodeValues(inputs, node), reported, []);
      const listed = Object.entries(own).map(([attribute, change]) => `${attribute}: ${change}`);
      sayLine(
        `${KIND}: takes over the existing node '${node}', ${listed.length > 0 ? `changing ${listed.join(", ")}` : "as it is"}`,
      );
      for (const [attribute, change] of Object.entries(own)) changes[`${node}.${attribute}`] = change;
    }
    return changes;
  },

  async read(client, id, olds) {
    if (olds.rows === undefined || olds.groups === undefined)
      throw new ResourceConflictError(
        `${KIND} '${id}': a NodeSet cannot be read from its id alone (Resource.get or pulumi import); ` +
          "declare it in the program with its rows and adopt: true to take existing nodes over.",
      );
    const recorded = { ...olds, attributes: olds.attributes ?? {} } as NodeSetOutputs;
    const held = await readNodes(client, recorded, Object.keys(recorded.rows));
    // Every node gone: the set is gone, and the next up creates it again.
    if (held.size === 0) return undefined;
    const inputs = inputsOfOutputs(recorded);
    const rows: NodeRows = heldRows(recorded, held);
    const heldInputs = { ...inputs, rows } as NodeSetInputs;
    return { id, inputs: heldInputs, outputs: outputsOf(heldInputs, rows, held) };
  },

  async update(client, id, olds, news, context) {
    const plan = planNodeSetUpdate(olds, news);
    // New rows are checked before anything is written: a conflict leaves the set as it was.
    const creation = await planCreation(client, news, plan.added, context);
    // Released rows leave the set and their nodes stay (moved to a Node or another set).
    const { released, deleted } = releasedOf(news, plan.removed);
    for (const node of released)
      sayLine(`${KIND}: released the node '${node}': it stays on Confluent as it is, no longer in this set`);
    const written = new Map<string, Record<string, string>>();
    return recordingWhatHappened(
      client,
      id,
      news,
      "update",
      async () => {
        if (deleted.length > 0) await deleteNodes(client, deleted);
        for (const write of plan.writes)
          for (const [node, values] of await writeNodes(client, news, write.nodes, write.changes))
            written.set(node, values);
        await applyCreation(client, news, creation);
      },
      () => reportAfterUpdate(client, olds, news, plan, written),
    );
  },

  async delete(client, _id, olds) {
    const names = Object.keys(olds.rows ?? {});
    if (names.length === 0) return;
    await deleteNodes(client, names);
    // The set's groups that now hold no node and no attribute go too, as with a Node's delete.
    const groups = toConfluent({ groups: (olds.groups ?? []).join(",") }).groups;
    await removeEmptyGroups(client, Array.isArray(groups) ? (groups as string[]) : []);
  },
};
