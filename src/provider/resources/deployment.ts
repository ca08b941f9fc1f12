/**
 * `xcat:Deployment`: an OS image deployed onto nodes (nodeset osimage, rsetboot net, rpower boot,
 * one noderange request per batch), waiting by default until every node reports `booted`.
 *
 * The outputs keep each node's state (`nodeStates`): a node is done once it booted the image.
 * Nodes that failed or timed out are recorded as not done, so the next `up` deploys only them;
 * adding nodes deploys only the new ones; a new `osimage` deploys all of them again (an update).
 * A roll stops starting batches on the engine's cancel, a failed canary or `maxFailures`; the
 * nodes it did not start keep their previous record, so the next `up` continues with them.
 * Refresh reads each node's image (nodetype.provmethod) and status: a node re-imaged with another
 * image shows as not done, a node powered off shows its new status; nothing is acted on until `up`.
 */
import { isNotFound, isXcatError, type XcatClient } from "../../client";
import { compareStrings } from "../../contract/noderange";
import { asRollInFlight } from "../cancel-grace";
import {
  type DeployPlan,
  type DeploySteps,
  deployWith,
  failureSummary,
  type NodeState,
  xcatSteps,
} from "../deploy";
import { unresolvedNodes, unresolvedReason } from "../name-resolution";
import { batches, compactNoderange } from "../node-batches";
import { missingOsimageProblem } from "../osimage-check";
import { isPlanned } from "../planned-objects";
import { sayLine } from "../provider-lines";
import { rollOrder } from "../roll-plan";
import {
  type CommonInputs,
  type OperationContext,
  PartialFailureError,
  ResourceConflictError,
  type ResourceSpec,
} from "../spec";
import {
  booleanProblems,
  connectionProblems,
  describe,
  failuresOn,
  type InputFailure,
  isUnknown,
  nameProblems,
  positiveIntegerProblems,
} from "../validation";
import { takeoverLine, takeoverOf, takeoverPreview } from "./deployment-adopt";
import { expandNodes, nodesInputProblems, rangeOf } from "./node-range-input";

const KIND = "xcat:Deployment";

export interface DeploymentInputs extends CommonInputs {
  /** A noderange or group (`r01n[01-16]`, `compute`), or a list of node names. */
  readonly nodes: string | string[];
  readonly osimage: string;
  readonly waitFor: "booted" | "none";
  readonly timeoutMinutes: number;
  readonly batchSize: number;
  readonly concurrency: number;
  /** The first nodes that must boot the image before any other node starts (0: no canary). */
  readonly canary: number;
  /** No new batch starts once this many nodes of a roll have failed. */
  readonly maxFailures: number;
  readonly pollSeconds: number;
  readonly onDelete: "keep" | "offline";
  /**
   * After a cancel (Ctrl-C), how long the batches in flight are still watched before their
   * unfinished nodes are recorded as not deployed and the operation ends (0: one last read).
   */
  readonly cancelGraceSeconds: number;
  /** After how many minutes without a status change the roll reports why its nodes may be stuck. */
  readonly stuckMinutes: number;
  /**
   * On create, take over the nodes that already booted `osimage` (recorded as done, untouched)
   * and deploy only the others (deployment-adopt.ts). Absent: false.
   */
  readonly adopt?: boolean;
}

export interface DeploymentOutputs extends DeploymentInputs {
  /** Per node: last status, when it was reached, the image and whether the node is done. */
  readonly nodeStates: Record<string, NodeState>;
}

export const DEPLOYMENT_DEFAULTS = {
  waitFor: "booted",
  timeoutMinutes: 60,
  batchSize: 100,
  concurrency: 2,
  /** One node boots the image first: a broken image costs one node, not a rack (docs/provisioning.md). */
  canary: 1,
  /** The first failed node stops new batches: a person looks before more nodes are re-imaged. */
  maxFailures: 1,
  pollSeconds: 10,
  onDelete: "keep",
  /** A minute: a node finishing its boot is recorded, and a hung one costs the admin one minute. */
  cancelGraceSeconds: 60,
  /** Longer than a node takes from power-on to its installer's first report. */
  stuckMinutes: 10,
} as const;

/** Progress lines, to the `pulumi up` output of either provider shell (provider-lines.ts). */
function reportProgress(line: string): void {
  sayLine(`${KIND} ${line}`);
}

/** The inputs with every optional setting filled in from its default. */
function withDefaults(
  given: Partial<DeploymentInputs>,
  nodes: DeploymentInputs["nodes"],
  osimage: string,
): DeploymentInputs {
  return {
    nodes,
    osimage,
    waitFor: given.waitFor ?? DEPLOYMENT_DEFAULTS.waitFor,
    timeoutMinutes: given.timeoutMinutes ?? DEPLOYMENT_DEFAULTS.timeoutMinutes,
    batchSize: given.batchSize ?? DEPLOYMENT_DEFAULTS.batchSize,
    concurrency: given.concurrency ?? DEPLOYMENT_DEFAULTS.concurrency,
    // With waitFor "none" nothing waits for a canary to boot, so there is none by default.
    canary: given.canary ?? (given.waitFor === "none" ? 0 : DEPLOYMENT_DEFAULTS.canary),
    maxFailures: given.maxFailures ?? DEPLOYMENT_DEFAULTS.maxFailures,
    pollSeconds: given.pollSeconds ?? DEPLOYMENT_DEFAULTS.pollSeconds,
    onDelete: given.onDelete ?? DEPLOYMENT_DEFAULTS.onDelete,
    cancelGraceSeconds: given.cancelGraceSeconds ?? DEPLOYMENT_DEFAULTS.cancelGraceSeconds,
    stuckMinutes: given.stuckMinutes ?? DEPLOYMENT_DEFAULTS.stuckMinutes,
    // Only a create reads it; kept out of states that never set it, so older states see no change.
    ...(given.adopt === true ? { adopt: true } : {}),
    ...(given.connection !== undefined && given.connection !== null ? { connection: given.connection } : {}),
  };
}

function planFor(
  inputs: DeploymentInputs,
  nodes: readonly string[],
  context: OperationContext | undefined,
): DeployPlan {
  const signal = context?.signal;
  // A deadline of the shell (customTimeouts) shortens the wait when it ends first.
  const ownMs = inputs.timeoutMinutes * 60_000;
  const timeoutMs =
    context?.deadline === undefined ? ownMs : Math.max(0, Math.min(ownMs, context.deadline - Date.now()));
  return {
    nodes,
    osimage: inputs.osimage,
    waitFor: inputs.waitFor,
    batchSize: inputs.batchSize,
    concurrency: inputs.concurrency,
    canary: inputs.canary,
    maxFailures: inputs.maxFailures,
    timeoutMs,
    pollMs: inputs.pollSeconds * 1000,
    cancelGraceMs: (inputs.cancelGraceSeconds ?? DEPLOYMENT_DEFAULTS.cancelGraceSeconds) * 1000,
    stuckMs: (inputs.stuckMinutes ?? DEPLOYMENT_DEFAULTS.stuckMinutes) * 60_000,
    ...(signal ? { signal } : {}),
  };
}

/** Whether a node is done for a deployment of `osimage`: it booted that image. */
function isDone(state: NodeState | undefined, osimage: string | undefined): boolean {
  return state?.deployed === true && state.osimage === osimage;
}

/** The record of a node a roll did not start: nothing happened to it, so what was known stays. */
function notStartedState(previous: NodeState | undefined, reason: string): NodeState {
  return previous ?? { status: `not started: ${reason}`, statusTime: "", osimage: "", deployed: false };
}

/**
 * Refuses an image xCAT does not have before any node is touched (nodeset would refuse it too,
 * destiny.pm:304, but only after the resource was recorded). Check cannot know it: it is pure.
 */
async function requireXcatImage(client: XcatClient, osimage: string): Promise<void> {
  try {
    await client.osimages.get(osimage);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    throw new ResourceConflictError(
      `${KIND}: osimage: xCAT has no OS image '${osimage}' (lsdef -t osimage). Nothing was changed. ` +
        "Define it first (xcat.Osimage, copycds) or fix the name.",
    );
  }
}

/**
 * Deploys onto `targets`, merges the result into `previous`, and fails partially when nodes
 * failed or the roll stopped early (the state then says exactly which nodes have the image).
 */
async function deployOnto<Client>(
  backend: DeploymentBackend<Client>,
  client: Client,
  id: string,
  inputs: DeploymentInputs,
  targets: readonly string[],
  previous: Readonly<Record<string, NodeState>>,
  report: (line: string) => void,
  context: OperationContext | undefined,
): Promise<DeploymentOutputs> {
  if (targets.length === 0) return { ...inputs, nodeStates: { ...previous } };
  await backend.requireImage(client, inputs.osimage);
  const ordered = rollOrder(targets, previous, inputs.osimage);
  const plan = planFor(inputs, ordered, context);
  const outcome = await asRollInFlight(plan.cancelGraceMs, () =>
    deployWith(backend.steps(client), plan, report),
  );
  const skipped = outcome.notStarted.map((node) => [
    node,
    notStartedState(previous[node], outcome.stopped ?? "the roll stopped"),
  ]);
  const outputs: DeploymentOutputs = {
    ...inputs,
    nodeStates: { ...previous, ...Object.fromEntries(skipped), ...Object.fromEntries(outcome.states) },
  };
  if (outcome.notStarted.length > 0 || [...outcome.states.values()].some((state) => !state.deployed)) {
    throw new PartialFailureError(failureSummary(KIND, outcome, inputs.osimage), id, outputs);
  }
  return outputs;
}

/**
 * The record with the nodes that booted `osimage` after a roll stopped watching them (a cancel's
 * grace period or the deadline ended first) marked done: read from the server before the next
 * roll, so a node that finished its boot is not re-imaged (issue #36 item 8). Only nodes recorded
 * as not done with this very image are read, in one request; on xCAT a node counts as booted when
 * its nodetype.provmethod is the image and its status `booted` (the post-install script reports
 * it, xcatinstallpost:140), as a refresh decides.
 */
async function withBootsSince<Client>(
  backend: DeploymentBackend<Client>,
  client: Client,
  names: readonly string[],
  previous: Readonly<Record<string, NodeState>>,
  osimage: string,
  report: (line: string) => void,
): Promise<Record<string, NodeState>> {
  const unsure = names.filter((node) => previous[node]?.osimage === osimage && !previous[node]?.deployed);
  if (unsure.length === 0) return { ...previous };
  const found = await backend.readStates(client, unsure, { osimage, nodeStates: previous });
  const booted = unsure.filter((node) => isDone(found?.nodeStates[node], osimage));
  if (booted.length === 0) return { ...previous };
  report(
    `${compactNoderange(booted)}: booted ${osimage} after the last roll stopped watching ` +
      `${booted.length === 1 ? "it" : "them"}: recorded as done, not deployed again`,
  );
  return {
    ...previous,
    ...Object.fromEntries(booted.map((node) => [node, found?.nodeStates[node] as NodeState])),
  };
}

function enumProblems(value: unknown, what: string, allowed: readonly string[]): string[] {
  if (value === undefined || isUnknown(value) || allowed.includes(value as string)) return [];
  return [`${what} must be ${allowed.map((a) => `"${a}"`).join(" or ")}, got ${describe(value)}`];
}

function nonNegativeNumberProblems(value: unknown, what: string): string[] {
  if (value === undefined || isUnknown(value)) return [];
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    return [`${what} must be a number of 0 or more, got ${describe(value)}`];
  }
  return [];
}

function positiveNumberProblems(value: unknown, what: string): string[] {
  if (value === undefined || isUnknown(value)) return [];
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    return [`${what} must be a number greater than 0, got ${describe(value)}`];
  }
  return [];
}

/** Problems with `canary`: a whole number of nodes, 0 for none, and only where a boot is awaited. */
function canaryProblems(value: unknown, waitFor: unknown): string[] {
  if (value === undefined || isUnknown(value)) return [];
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    return [`canary must be a whole number of nodes, 0 or more, got ${describe(value)}`];
  }
  if (value > 0 && waitFor === "none") {
    return [
      `canary ${value} needs waitFor "booted": with waitFor "none" nothing waits for the canary to boot ` +
        "(set canary: 0, or wait for the nodes to boot)",
    ];
  }
  return [];
}

/**
 * What a Deployment needs from its backend: the image (xCAT) or profile (Confluent) check, the
 * node names of a range, the roll's steps, each node's state for a refresh, and taking nodes
 * offline on delete. The xCAT one is below; Confluent's is in confluent/deployment.ts.
 */
export interface DeploymentBackend<Client> {
  /** Refuses a missing image before any node is touched (ResourceConflictError). */
  requireImage(client: Client, osimage: string): Promise<void>;
  /** The preview's version of that check: the problem, or undefined. */
  missingImage(client: Client, osimage: string): Promise<string | undefined>;
  /**
   * For preview: why the roll's first step would refuse some of the nodes (what each existing
   * node lacks, names that will not resolve where nodeset runs), each a reason naming the nodes.
   */
  nodeProblems?(client: Client, nodes: string | readonly string[]): Promise<string[]>;
  expandNodes(client: Client, nodes: string | readonly string[]): Promise<string[]>;
  steps(client: Client): DeploySteps;
  /** Each existing node's state; nodes that are gone are left out. Not-found: undefined. */
  readStates(
    client: Client,
    nodes: string | readonly string[],
    olds: Partial<DeploymentOutputs>,
  ): Promise<{ osimage: string; nodeStates: Record<string, NodeState> } | undefined>;
  /** onDelete "offline" for one batch of recorded nodes (those that still exist). */
  takeOffline(client: Client, nodes: readonly string[]): Promise<string | undefined>;
}

/**
 * The preview's node checks, from one read of the nodes' netboot, mac and ip (issue #28 and #29):
 * - a node without `netboot` has no nodeset plugin ("Unable to identify plugin", xcatd's plugin
 *   choice by noderes.netboot, xnba.pm master:29), one without a MAC is refused by setdestiny
 *   (destiny.pm master:415-438, after its nodetype was written);
 * - a node whose name will not resolve on the management node gets no address from nodeset's
 *   makedhcp (name-resolution.ts), for which the `ip` read here is what xCAT holds.
 * Nodes this program defines are left out of the first (their attributes are not on the server
 * yet), and so are nodes not defined at all (the roll names them). A noderange that names nodes
 * the program has yet to define cannot be read: up expands and reports it.
 */
async function xcatNodeProblems(client: XcatClient, nodes: string | readonly string[]): Promise<string[]> {
  let found: Map<string, Record<string, string>> | undefined;
  try {
    found = await client.nodes.getMany(rangeOf(nodes), { attrs: ["netboot", "mac", "ip"] });
  } catch (error) {
    if (!isNotFound(error) && !isXcatError(error)) throw error;
  }
  // In name order: a real xCAT answers a noderange's nodes in no particular order.
  const existing = [...(found?.keys() ?? [])].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const problems: string[] = [];
  const refused: string[] = [];
  for (const node of existing) {
    if (isPlanned("xcat:Node", node)) continue;
    const attributes = found?.get(node) ?? {};
    const lacking = [attributes.netboot ? "" : "netboot", attributes.mac ? "" : "mac"].filter(Boolean);
    if (lacking.length > 0) refused.push(`${node} (no ${lacking.join(", no ")})`);
  }
  if (refused.length > 0) {
    const shown =
      refused.length > 10 ? [...refused.slice(0, 10), `and ${refused.length - 10} more`] : refused;
    problems.push(
      `${KIND}: nodes: nodeset would refuse ${refused.length} node(s): ${shown.join(", ")}. ` +
        "Nothing was changed. Give each node a netboot method (noderes.netboot, e.g. xnba) and a MAC (mac.mac), on the node or its group.",
    );
  }
  // A noderange is the nodes it names now; a list also names nodes the program has yet to write.
  if (typeof nodes === "string" && found === undefined) return problems;
  const names = typeof nodes === "string" ? existing : nodes;
  // The read holds every listed node's ip, unless a node of the list is not on the server yet:
  // then the nodes in question are read again by name (a list read leaves the missing ones out).
  const unresolved = await unresolvedNodes(client, names, found);
  if (unresolved.length > 0) problems.push(unresolvedReason(KIND, unresolved));
  return problems;
}

const xcatDeploymentBackend: DeploymentBackend<XcatClient> = {
  requireImage: requireXcatImage,
  missingImage: missingOsimageProblem,
  nodeProblems: xcatNodeProblems,
  expandNodes: (client, nodes) => expandNodes(client, KIND, nodes),
  steps: xcatSteps,
  async readStates(client, nodes, olds) {
    let found: Map<string, Record<string, string>>;
    try {
      // A list is read as a list, so nodes removed since are left out rather than failing the read.
      found = await client.nodes.getMany(nodes, { attrs: ["provmethod", "status", "statustime"] });
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (found.size === 0) return undefined;
    const osimage = olds.osimage ?? [...found.values()][0]?.provmethod ?? "";
    const nodeStates: Record<string, NodeState> = {};
    for (const [node, attributes] of found) {
      const status = attributes.status ?? "";
      const image = attributes.provmethod ?? "";
      const wasDone = olds.nodeStates?.[node]?.deployed === true;
      nodeStates[node] = {
        status,
        statusTime: attributes.statustime ?? "",
        osimage: image,
        // Re-imaged by hand or failing now: not done. Booted with the image: done, even when
        // an earlier deployment timed out on it. Otherwise (powered off, say) as recorded.
        deployed: image === osimage && status !== "failed" && (status === "booted" || wasDone),
      };
    }
    return { osimage, nodeStates };
  },
  async takeOffline(client, listed) {
    // Nodes removed before the deployment need nothing: act on those that still exist.
    const existing = await client.nodes.getMany(listed, { attrs: ["groups"] });
    const batch = listed.filter((node) => existing.has(node));
    if (batch.length === 0) return undefined;
    const range = compactNoderange(batch);
    await client.nodes.setBootstate(range, { state: "offline" });
    await client.nodes.setPower(range, "off");
    return `${range}: nodeset offline, powered off`;
  },
};

/**
 * The nodes an adopting Deployment would still deploy (deployment-adopt.ts); all of them when
 * the nodes cannot be read yet (the program has yet to define them).
 */
async function adoptedRest<Client>(
  backend: DeploymentBackend<Client>,
  client: Client,
  inputs: DeploymentInputs,
): Promise<string | readonly string[]> {
  try {
    const names = await backend.expandNodes(client, inputs.nodes);
    return (await takeoverOf(backend, client, names, inputs.osimage)).rest;
  } catch {
    return inputs.nodes;
  }
}

/** Builds the spec; `report` receives progress lines (the `pulumi up` output by default). */
export function deploymentSpecWith(
  report: (line: string) => void,
): ResourceSpec<DeploymentInputs, DeploymentOutputs> {
  return deploymentSpecOn(xcatDeploymentBackend, report);
}

/** The Deployment spec on a backend. */
export function deploymentSpecOn<Client>(
  backend: DeploymentBackend<Client>,
  report: (line: string) => void = reportProgress,
): ResourceSpec<DeploymentInputs, DeploymentOutputs, Client> {
  return {
    kind: KIND,

    check(news) {
      const failures: InputFailure[] = [];
      const add = (property: string, problems: readonly string[]) =>
        failures.push(...failuresOn(property, problems));
      add("nodes", nodesInputProblems(news.nodes));
      add("osimage", nameProblems(news.osimage, "osimage"));
      add("waitFor", enumProblems(news.waitFor, "waitFor", ["booted", "none"]));
      add("timeoutMinutes", positiveNumberProblems(news.timeoutMinutes, "timeoutMinutes"));
      add("pollSeconds", positiveNumberProblems(news.pollSeconds, "pollSeconds"));
      if (news.batchSize !== undefined)
        add("batchSize", positiveIntegerProblems(news.batchSize, "batchSize"));
      if (news.concurrency !== undefined)
        add("concurrency", positiveIntegerProblems(news.concurrency, "concurrency"));
      add("canary", canaryProblems(news.canary, news.waitFor));
      if (news.maxFailures !== undefined)
        add("maxFailures", positiveIntegerProblems(news.maxFailures, "maxFailures"));
      add("onDelete", enumProblems(news.onDelete, "onDelete", ["keep", "offline"]));
      add("cancelGraceSeconds", nonNegativeNumberProblems(news.cancelGraceSeconds, "cancelGraceSeconds"));
      add("stuckMinutes", positiveNumberProblems(news.stuckMinutes, "stuckMinutes"));
      add("adopt", booleanProblems(news.adopt, "adopt"));
      add("connection", connectionProblems(news.connection));
      if (failures.length > 0) return { failures };
      const given = news as Partial<DeploymentInputs>;
      return { inputs: withDefaults(given, news.nodes as DeploymentInputs["nodes"], news.osimage as string) };
    },

    async serverProblems(client, inputs) {
      const failures: InputFailure[] = [];
      if (!isUnknown(inputs.osimage)) {
        const problem = await backend.missingImage(client, inputs.osimage);
        if (problem) failures.push({ property: "osimage", reason: `${KIND}: osimage: ${problem}` });
      }
      const nodesKnown =
        !isUnknown(inputs.nodes) && !(Array.isArray(inputs.nodes) && inputs.nodes.some(isUnknown));
      if (nodesKnown && backend.nodeProblems) {
        // Nodes an adopting Deployment takes over see no nodeset: only the others are checked.
        const checked = inputs.adopt === true ? await adoptedRest(backend, client, inputs) : inputs.nodes;
        const reasons = checked.length === 0 ? [] : await backend.nodeProblems(client, checked);
        for (const reason of reasons) failures.push({ property: "nodes", reason });
      }
      return failures;
    },

    replaceKeys() {
      return [];
    },

    hasChanges(olds, news) {
      const settings = [
        "osimage",
        "waitFor",
        "timeoutMinutes",
        "batchSize",
        "concurrency",
        "pollSeconds",
        "onDelete",
      ] as const;
      // Written before these existed, a state lacks them: not a change by itself.
      const policy = (["canary", "maxFailures", "cancelGraceSeconds", "stuckMinutes"] as const).filter(
        (key) => olds[key] !== undefined,
      );
      return (
        settings.some((key) => olds[key] !== news[key]) ||
        policy.some((key) => olds[key] !== news[key]) ||
        JSON.stringify(olds.nodes) !== JSON.stringify(news.nodes) ||
        Object.values(olds.nodeStates ?? {}).some((state) => !isDone(state, olds.osimage))
      );
    },

    async create(client, inputs, context) {
      const id = rangeOf(inputs.nodes);
      const names = await backend.expandNodes(client, inputs.nodes);
      if (inputs.adopt === true) {
        await backend.requireImage(client, inputs.osimage);
        const takeover = await takeoverOf(backend, client, names, inputs.osimage);
        report(`${id}: ${takeoverLine(takeover, inputs.osimage)}`);
        const outputs = await deployOnto(
          backend,
          client,
          id,
          inputs,
          takeover.rest,
          takeover.taken,
          report,
          context,
        );
        return { id, outputs };
      }
      return { id, outputs: await deployOnto(backend, client, id, inputs, names, {}, report, context) };
    },

    async adoptChanges(client, inputs) {
      if (inputs.adopt !== true || isUnknown(inputs.osimage) || isUnknown(inputs.nodes)) return undefined;
      if (Array.isArray(inputs.nodes) && inputs.nodes.some(isUnknown)) return undefined;
      return takeoverPreview(backend, client, inputs.nodes, inputs.osimage);
    },

    async read(client, id, olds) {
      const nodes = olds.nodes ?? id;
      const found = await backend.readStates(client, nodes, olds);
      if (!found) return undefined;
      const inputs = withDefaults(olds, nodes, found.osimage);
      return { id, inputs, outputs: { ...inputs, nodeStates: found.nodeStates } };
    },

    async update(client, id, olds, news, context) {
      const names = await backend.expandNodes(client, news.nodes);
      const previous = await withBootsSince(
        backend,
        client,
        names,
        olds.nodeStates ?? {},
        news.osimage,
        report,
      );
      const imageChanged = olds.osimage !== news.osimage;
      // A node is left alone only when it booted this very image: after a new image, or a roll
      // that stopped part way, the others are deployed.
      const targets = names.filter((node) => !isDone(previous[node], news.osimage));
      const kept = Object.fromEntries(
        names.filter((n) => previous[n]).map((n) => [n, previous[n] as NodeState]),
      );
      if (targets.length > 0) {
        report(
          `${rangeOf(news.nodes)}: deploying ${news.osimage} onto ${targets.length} of ${names.length} node(s)` +
            (imageChanged
              ? ` (image changed from ${olds.osimage})`
              : " (new, not yet booted, or not reached)"),
        );
      }
      return deployOnto(backend, client, id, news, targets, kept, report, context);
    },

    async delete(client, _id, olds, context) {
      if (olds.onDelete !== "offline") return;
      // In name order: the states are recorded in the order nodes booted, which varies run to run.
      const recorded = Object.keys(olds.nodeStates ?? {}).sort(compareStrings);
      for (const listed of batches(recorded, olds.batchSize ?? DEPLOYMENT_DEFAULTS.batchSize)) {
        // Cancelled: the engine keeps the resource, and the next destroy does it all again
        // (nodeset offline and power off change nothing on nodes already done).
        if (context?.signal?.aborted) {
          throw new ResourceConflictError(
            `${KIND}: cancelled before ${compactNoderange(listed)} was taken offline; the deployment stays ` +
              "in the state, and the next pulumi destroy (or up) finishes it.",
          );
        }
        const done = await backend.takeOffline(client, listed);
        if (done !== undefined) report(done);
      }
    },
  };
}

export const deploymentSpec = deploymentSpecWith(reportProgress);
