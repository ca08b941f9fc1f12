/**
 * `xcat:NodeSet`: many node definitions as one resource (a rack, a site's inventory file), with
 * per-node truth inside it. Each node holds the set's `groups` and `attributes` and its own row;
 * only those attributes are managed, a dropped column is cleared, refresh reads what each node
 * holds (one GET for the set) and reports a node's difference as that node's own value, so
 * `preview --diff` names `rows.r01n03.ip`.
 *
 * Requests follow xCAT's noderange semantics (xcat-behavior.md §1.3: chdef and rmdef expand a
 * noderange in the path; §9.6: a DELETE of a range with a missing node still deletes the others;
 * §10: a PUT to 100 nodes costs about what a PUT to one does): a value common to the nodes
 * changes with one PUT of their noderange, removed rows go in one DELETE, the set's delete is one
 * DELETE. A node is created with its own POST, since its values (ip, mac) are its own: mkdef of
 * a range gives every node the same values.
 */
import type { UpdatedObject, XcatClient } from "../../client";
import type { AttributeObjectInputs } from "../attribute-object";
import { attributeValueProblems } from "../attribute-values";
import { adoptionChanges, isSecretAttribute, publicAttributes } from "../attributes";
import { compactNoderange } from "../node-batches";
import {
  announceNameServices,
  nameServicesAfterWrite,
  nameServicesBeforeDelete,
} from "../node-name-services";
import { nodeOwnReported } from "../node-own-values";
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
import { compactReports, type NodeReports, reportsOfOutputs } from "../node-set-reports";
import { expandNodesInput, type NodeRows, nodeSetRows, nodesProblems } from "../node-set-rows";
import { sayLine } from "../provider-lines";
import {
  type CheckOutcome,
  type CommonInputs,
  type OperationContext,
  PartialFailureError,
  ResourceConflictError,
  type ResourceSpec,
} from "../spec";
import {
  attributeMapProblems,
  booleanProblems,
  connectionProblems,
  failuresOn,
  type InputFailure,
  isPlainObject,
  isUnknown,
  nameProblems,
} from "../validation";
import { attributesDecidedByGroups, KNOWN_ONLY_BEFORE_2_18 } from "../versioned-attributes";

const KIND = "xcat:NodeSet";

/** Checked inputs: the per-node values as rows, whether given as rows, csv or nodes alone. */
export interface NodeSetInputs extends CommonInputs {
  readonly groups: string[];
  readonly attributes: Record<string, string>;
  readonly rows: NodeRows;
  readonly nodes?: string;
  /**
   * A noderange of nodes whose rows may leave the set without being deleted on xCAT: they moved
   * to a Node or another NodeSet (docs/large-clusters.md, "Moving nodes between a Node and a NodeSet").
   */
  readonly release?: string;
  readonly adopt: boolean;
}

/**
 * Outputs: the inputs, the nodes as xCAT's compact noderange, and what each node holds, in the
 * compact form of node-set-reports.ts.
 */
export interface NodeSetOutputs extends NodeSetInputs {
  readonly noderange: string;
  /**
   * Per node, what xCAT reports for it (inherited values too, passwords left out) beyond its
   * row in `rows` and `sharedAttributes` (node-set-reports.ts); in a state written before
   * those existed, every node's report whole.
   */
  readonly nodeAttributes: NodeReports;
  /** What every node of the set reports alike; absent in a state written before it existed. */
  readonly sharedAttributes?: Record<string, string>;
}

function groupsProblems(value: unknown): string[] {
  if (value === undefined)
    return ["groups is required for a NodeSet (xCAT needs at least one group per node)"];
  if (isUnknown(value)) return [];
  if (!Array.isArray(value) || value.length === 0)
    return ['groups must be a non-empty list of group names (xCAT needs at least one, e.g. ["all"])'];
  return value.flatMap((group, index) => nameProblems(group, `groups[${index}]`));
}

function attributesProblems(value: unknown): string[] {
  const problems = [
    ...attributeMapProblems(value, "attributes", "node", {
      groups: "is set by the 'groups' input, not in attributes",
    }),
    ...attributeValueProblems(value, "attributes", "node", isUnknown),
  ];
  if (isPlainObject(value)) {
    for (const name of Object.keys(value)) {
      if (isSecretAttribute(name))
        problems.push(
          `attributes: '${name}' holds a password, which a NodeSet does not take yet; set it on a Group the nodes belong to`,
        );
    }
  }
  return problems;
}

function check(news: Readonly<Record<string, unknown>>): CheckOutcome<NodeSetInputs> {
  const failures: InputFailure[] = [
    ...failuresOn("groups", groupsProblems(news.groups)),
    ...failuresOn("attributes", attributesProblems(news.attributes)),
    ...failuresOn("adopt", booleanProblems(news.adopt, "adopt")),
    ...failuresOn(
      "release",
      nodesProblems(news.release).map((reason) => reason.replace(/^nodes\b/, "release")),
    ),
    ...failuresOn("connection", connectionProblems(news.connection)),
  ];
  const { rows, failures: rowFailures } = nodeSetRows(news);
  failures.push(...rowFailures);
  if (failures.length > 0) return { failures };
  const inputs: Record<string, unknown> = {
    groups: news.groups,
    attributes: isPlainObject(news.attributes) ? news.attributes : {},
    // During preview the rows of a csv that is not known yet are unknown as a whole.
    rows,
    adopt: news.adopt === true,
  };
  if (news.nodes !== undefined) inputs.nodes = news.nodes;
  if (news.release !== undefined) inputs.release = news.release;
  if (news.connection !== undefined) inputs.connection = news.connection;
  return { inputs: inputs as unknown as NodeSetInputs };
}

/** The removed rows whose nodes stay on xCAT, and those to delete (names in order). */
export function releasedOf(
  set: Pick<NodeSetInputs, "release">,
  removed: readonly string[],
): { released: string[]; deleted: string[] } {
  const names =
    typeof set.release === "string" && !isUnknown(set.release)
      ? new Set(expandNodesInput(set.release))
      : new Set<string>();
  return {
    released: removed.filter((node) => names.has(node)),
    deleted: removed.filter((node) => !names.has(node)),
  };
}

/** Whether any value the plan needs is still unknown (a preview before other resources exist). */
export function hasUnknown(set: NodeSetInputs): boolean {
  if (isUnknown(set.rows) || isUnknown(set.groups)) return true;
  const values: unknown[] = [...set.groups, ...Object.values(set.attributes)];
  for (const row of Object.values(set.rows)) values.push(...Object.values(row));
  return values.some(isUnknown);
}

export function outputsOf(
  inputs: NodeSetInputs,
  rows: NodeRows,
  reported: ReadonlyMap<string, Record<string, string>>,
): NodeSetOutputs {
  const held = new Map<string, Record<string, string>>();
  for (const [node, values] of reported) held.set(node, publicAttributes(values));
  const { sharedAttributes, nodeAttributes } = compactReports(Object.keys(rows).sort(), held, rows);
  return {
    ...inputs,
    rows,
    noderange: compactNoderange(Object.keys(rows)),
    nodeAttributes,
    sharedAttributes,
  };
}

/**
 * The inputs a set's outputs were written with: what the outputs add left out (also
 * `sharedAttributes`, which a state written before it existed lacks).
 */
export function inputsOfOutputs(outputs: NodeSetOutputs): NodeSetInputs {
  const {
    noderange: _noderange,
    nodeAttributes: _nodeAttributes,
    sharedAttributes: _shared,
    ...inputs
  } = outputs;
  return inputs;
}

/**
 * Reads the nodes as one group; the map lacks those xCAT does not have. Sets read at the same
 * time (a refresh, the read-backs of an up) share requests, and a refresh of most of a large
 * cluster ends in one read of every node (the client's read batcher decides by cost); a lone
 * set is one GET of its noderange.
 */
function readNodes(
  client: XcatClient,
  nodes: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  return nodes.length === 0 ? Promise.resolve(new Map()) : client.nodes.getGroup(nodes);
}

/**
 * What each node holds itself, for comparing with what the set declares: a node's postscripts
 * as lsdef reports them carry the xcatdefaults scripts in front, which the node does not hold
 * (node-own-values.ts, as Node compares). `nodeAttributes` keeps what xCAT reports.
 */
async function ownValues(
  client: XcatClient,
  set: NodeSetValues,
  reported: ReadonlyMap<string, Record<string, string>>,
): Promise<Map<string, Record<string, string>>> {
  const own = new Map<string, Record<string, string>>();
  for (const [node, values] of reported)
    own.set(node, await nodeOwnReported(client, values, Object.keys(nodeValues(set, node))));
  return own;
}

/**
 * The nodes' hosts, DNS and DHCP entries, as a Node's (node-name-services.ts: the stack's
 * `xcat:nameServices` and the site's settings decide; only writes that change a node's ip, mac
 * or name send anything). Each node is submitted alone, and the client merges the nodes of one
 * command into one noderange request (NodesApi name services).
 */
async function nameServicesAfter(
  client: XcatClient,
  set: NodeSetInputs,
  writes: ReadonlyArray<{ node: string; before: Record<string, string> | undefined }>,
): Promise<void> {
  const inputs = set as unknown as AttributeObjectInputs;
  await Promise.all(
    writes.map(({ node, before }) =>
      nameServicesAfterWrite(client, node, before, nodeValues(set, node), inputs),
    ),
  );
}

/** The DNS and DHCP entries of nodes about to be deleted go first, as a Node's. */
async function nameServicesBefore(client: XcatClient, set: NodeSetInputs, nodes: readonly string[]) {
  const inputs = set as unknown as AttributeObjectInputs;
  await Promise.all(nodes.map((node) => nameServicesBeforeDelete(client, node, inputs)));
}

/**
 * Plans the creation of `nodes`: reads those that exist (one request for all), then
 * node-set-creation.ts decides what is taken, adopted or refused, before anything is written.
 */
async function planCreation(
  client: XcatClient,
  set: NodeSetInputs,
  nodes: readonly string[],
  context: OperationContext | undefined,
): Promise<NodeSetCreation> {
  const existing = await ownValues(client, set, await readNodes(client, nodes));
  return planNodeSetCreation(set, nodes, existing, "in xCAT", context?.replacing === true);
}

/** Adopts and creates as planned: adoptions merged by equal change, each new node its own POST. */
async function applyCreation(
  client: XcatClient,
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
  for (const write of mergedWrites(creation.adoptions)) {
    await client.nodes.update(compactNoderange(write.nodes), write.changes);
  }
  const { missing } = creation;
  // Attributes only the nodes' groups decide (bmc under a group's mgt=ipmi) are dropped without a
  // word by a create on xCAT before 2.18: they go in a second request once the node exists, as
  // Node does (versioned-attributes.ts). Known to be 2.18 or newer: one request per node.
  const later = new Map(missing.map((node) => [node, attributesDecidedByGroups(nodeValues(set, node))]));
  const deferring =
    [...later.values()].some((names) => names.length > 0) &&
    (await client.nodes.knowsAttribute(KNOWN_ONLY_BEFORE_2_18)) !== false;
  const results = await Promise.allSettled(
    missing.map((node) => {
      const values = nodeValues(set, node);
      const deferred = deferring ? (later.get(node) ?? []) : [];
      return client.nodes.create(
        node,
        Object.fromEntries(Object.entries(values).filter(([name]) => !deferred.includes(name))),
      );
    }),
  );
  const failed = results.flatMap((result, index) =>
    result.status === "rejected" ? [{ node: missing[index] ?? "", reason: result.reason as unknown }] : [],
  );
  if (failed.length > 0) {
    const reasons = failed
      .slice(0, 5)
      .map(({ node, reason }) => `${node}: ${reason instanceof Error ? reason.message : String(reason)}`);
    throw new Error(
      `creating ${failed.length} of ${missing.length} nodes failed (${reasons.join("; ")}${failed.length > 5 ? "; ..." : ""})`,
    );
  }
  if (deferring) await finishDeferred(client, set, missing, later);
  await nameServicesAfter(client, set, [
    ...[...creation.adoptions.keys()].map((node) => ({ node, before: creation.existing.get(node) })),
    ...missing.map((node) => ({ node, before: undefined })),
  ]);
}

/** The second request of a create on xCAT before 2.18 (see applyCreation), merged by equal change. */
async function finishDeferred(
  client: XcatClient,
  set: NodeSetInputs,
  missing: readonly string[],
  later: ReadonlyMap<string, readonly string[]>,
): Promise<void> {
  const second = new Map(
    missing.map((node) => {
      const values = nodeValues(set, node);
      return [node, Object.fromEntries((later.get(node) ?? []).map((name) => [name, values[name] ?? ""]))];
    }),
  );
  for (const write of mergedWrites(second)) {
    await client.nodes.update(compactNoderange(write.nodes), write.changes);
  }
}

/**
 * Runs the writes of a create or update and reports what the server holds after them (`report`);
 * when a write fails after others went through, records what the server now holds (read back as
 * one group) so the next up continues from there.
 */
async function recordingWhatHappened(
  client: XcatClient,
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
    const reported = await readNodes(client, names);
    const reason = error instanceof Error ? error.message : String(error);
    throw new PartialFailureError(
      `${KIND}: the ${operation} of ${compactNoderange(names)} stopped: ${reason}. The state records what ` +
        "xCAT holds now; run up again to finish.",
      id,
      outputsOf(inputs, heldRows(inputs, await ownValues(client, inputs, reported)), reported),
    );
  }
  return outputsOf(inputs, inputs.rows, await report());
}

/**
 * What each node of the set holds after an update, read only where that is not known.
 *
 * Why this is honest (nothing reported that the server was not asked to hold, or did not say it
 * holds): a node the update wrote reports what the last read of it recorded (`nodeAttributes`,
 * from refresh or the previous up) with the values the accepted PUT set, only where the client's
 * rule proves that is what xCAT now reports (known-after-update.ts: non-empty values of
 * attributes in a column of their own, which the node itself held before; lsdef then reports
 * exactly that and nothing else changed), as a `Node`'s update does; every other node written
 * (a clear, `groups`, a value it inherited) is read back. A node the update did not write keeps
 * what was recorded of it, as a `Node` the engine does not update keeps its outputs. Nodes created
 * or adopted are read back. The reads of all sets updated at once share requests.
 */
function reportAfterUpdate(
  client: XcatClient,
  olds: NodeSetOutputs,
  news: NodeSetInputs,
  plan: NodeSetPlan,
): () => Promise<ReadonlyMap<string, Record<string, string>>> {
  return async () => {
    const recorded = reportsOfOutputs(olds);
    const sent = new Map<string, Record<string, string>>();
    for (const write of plan.writes)
      for (const node of write.nodes) sent.set(node, { ...sent.get(node), ...write.changes });
    const added = new Set(plan.added);
    const updates: UpdatedObject[] = [];
    const reported = new Map<string, Record<string, string>>();
    const toRead: string[] = [];
    for (const node of Object.keys(news.rows)) {
      const before = recorded[node];
      const written = sent.get(node);
      if (added.has(node) || before === undefined) toRead.push(node);
      else if (written === undefined) reported.set(node, before);
      else
        updates.push({
          name: node,
          sent: written,
          before: { recorded: before, previous: nodeValues(olds, node) },
        });
    }
    const [afterWrites, read] = await Promise.all([
      updates.length > 0
        ? client.nodes.reportAfterUpdates(updates)
        : new Map<string, Record<string, string>>(),
      readNodes(client, toRead),
    ]);
    for (const [node, values] of [...afterWrites, ...read]) reported.set(node, values);
    return reported;
  };
}

export const nodeSetSpec: ResourceSpec<NodeSetInputs, NodeSetOutputs> = {
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
      () => readNodes(client, names),
    );
    return { id, outputs };
  },

  async announceSideEffects(client, olds, inputs) {
    if (olds !== undefined && !hasUnknown(inputs) && !hasUnknown(olds)) {
      const { released } = releasedOf(inputs, removedRows(olds, inputs));
      // In plain `pulumi preview`: the row goes, the node stays (the diff alone shows a removed row).
      for (const node of released)
        sayLine(
          `${KIND}: releases the node '${node}': its row leaves the set, the node stays on xCAT as it is`,
        );
    }
    if (hasUnknown(inputs) || inputs.adopt || (olds !== undefined && hasUnknown(olds))) return;
    const shown = inputs as unknown as AttributeObjectInputs;
    for (const node of Object.keys(inputs.rows).sort()) {
      const before = olds?.rows[node] === undefined ? undefined : nodeValues(olds, node);
      await announceNameServices(client, node, before, nodeValues(inputs, node), shown);
    }
  },

  async adoptChanges(client, inputs) {
    if (!inputs.adopt || hasUnknown(inputs)) return undefined;
    const existing = await ownValues(client, inputs, await readNodes(client, Object.keys(inputs.rows)));
    if (existing.size === 0) return undefined;
    const changes: Record<string, string> = {};
    for (const [node, reported] of [...existing].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const own = adoptionChanges(nodeValues(inputs, node), reported, []);
      const listed = Object.entries(own).map(([attribute, change]) => `${attribute}: ${change}`);
      // One line per node taken over, in plain `pulumi preview`, as Node says it.
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
    const reported = await readNodes(client, Object.keys(recorded.rows));
    // Every node gone: the set is gone, and the next up creates it again.
    if (reported.size === 0) return undefined;
    const inputs = inputsOfOutputs(recorded);
    const own = await ownValues(client, recorded, reported);
    const held = { ...inputs, rows: heldRows(recorded, own) } as NodeSetInputs;
    return { id, inputs: held, outputs: outputsOf(held, held.rows, reported) };
  },

  async update(client, id, olds, news, context) {
    const plan = planNodeSetUpdate(olds, news);
    // New rows are checked before anything is written: a conflict leaves the set as it was.
    const creation = await planCreation(client, news, plan.added, context);
    // Released rows leave the set and their nodes stay, name services and all (moved to a Node).
    const { released, deleted } = releasedOf(news, plan.removed);
    for (const node of released)
      sayLine(`${KIND}: released the node '${node}': it stays on xCAT as it is, no longer in this set`);
    const report = reportAfterUpdate(client, olds, news, plan);
    return recordingWhatHappened(
      client,
      id,
      news,
      "update",
      async () => {
        if (deleted.length > 0) {
          await nameServicesBefore(client, olds, deleted);
          await client.nodes.delete(compactNoderange(deleted), { ignoreMissing: true });
        }
        for (const write of plan.writes) {
          await client.nodes.update(compactNoderange(write.nodes), write.changes);
        }
        await nameServicesAfter(
          client,
          news,
          plan.writes.flatMap((write) =>
            write.nodes.map((node) => ({ node, before: nodeValues(olds, node) })),
          ),
        );
        await applyCreation(client, news, creation);
      },
      report,
    );
  },

  async delete(client, _id, olds) {
    const names = Object.keys(olds.rows ?? {});
    if (names.length === 0) return;
    await nameServicesBefore(client, olds, names);
    // One DELETE of the noderange; xCAT deletes the nodes it has even when some are gone (§9.6).
    await client.nodes.delete(compactNoderange(names), { ignoreMissing: true });
  },
};
