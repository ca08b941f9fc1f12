/**
 * `xcat:Deployment`: an OS image deployed onto nodes (nodeset osimage, rsetboot net, rpower boot,
 * one noderange request per batch), waiting by default until every node reports `booted`.
 *
 * The outputs keep each node's state (`nodeStates`): a node is done once it booted the image.
 * Nodes that failed or timed out are recorded as not done, so the next `up` deploys only them;
 * adding nodes deploys only the new ones; a new `osimage` deploys all of them again (an update).
 * Refresh reads each node's image (nodetype.provmethod) and status: a node re-imaged with another
 * image shows as not done, a node powered off shows its new status; nothing is acted on until `up`.
 */
import { isNotFound, type XcatClient } from "../../client";
import { type DeployPlan, deploy, failureSummary, type NodeState } from "../deploy";
import { batches, compactNoderange } from "../node-batches";
import { type CommonInputs, PartialFailureError, ResourceConflictError, type ResourceSpec } from "../spec";
import {
  connectionProblems,
  describe,
  failuresOn,
  type InputFailure,
  isUnknown,
  nameProblems,
  positiveIntegerProblems,
} from "../validation";
import { expandNodes, nodesInputProblems, rangeOf } from "./node-set";

const KIND = "xcat:Deployment";

export interface DeploymentInputs extends CommonInputs {
  /** A noderange or group (`r01n[01-16]`, `compute`), or a list of node names. */
  readonly nodes: string | string[];
  readonly osimage: string;
  readonly waitFor: "booted" | "none";
  readonly timeoutMinutes: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly pollSeconds: number;
  readonly onDelete: "keep" | "offline";
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
  pollSeconds: 10,
  onDelete: "keep",
} as const;

/** Progress lines: the dynamic provider's stderr reaches the `pulumi up` output (v3.146+). */
function reportToStderr(line: string): void {
  process.stderr.write(`${KIND} ${line}\n`);
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
    pollSeconds: given.pollSeconds ?? DEPLOYMENT_DEFAULTS.pollSeconds,
    onDelete: given.onDelete ?? DEPLOYMENT_DEFAULTS.onDelete,
    ...(given.connection !== undefined && given.connection !== null ? { connection: given.connection } : {}),
  };
}

function planFor(inputs: DeploymentInputs, nodes: readonly string[]): DeployPlan {
  return {
    nodes,
    osimage: inputs.osimage,
    waitFor: inputs.waitFor,
    batchSize: inputs.batchSize,
    concurrency: inputs.concurrency,
    timeoutMs: inputs.timeoutMinutes * 60_000,
    pollMs: inputs.pollSeconds * 1000,
  };
}

/**
 * Refuses an image xCAT does not have before any node is touched (nodeset would refuse it too,
 * destiny.pm:304, but only after the resource was recorded). Check cannot know it: it is pure.
 */
async function requireImage(client: XcatClient, osimage: string): Promise<void> {
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

/** Deploys onto `targets`, merges the result into `previous`, and fails partially when nodes failed. */
async function deployOnto(
  client: XcatClient,
  id: string,
  inputs: DeploymentInputs,
  targets: readonly string[],
  previous: Readonly<Record<string, NodeState>>,
  report: (line: string) => void,
): Promise<DeploymentOutputs> {
  if (targets.length === 0) return { ...inputs, nodeStates: { ...previous } };
  await requireImage(client, inputs.osimage);
  const states = await deploy(client, planFor(inputs, targets), report);
  const outputs: DeploymentOutputs = {
    ...inputs,
    nodeStates: { ...previous, ...Object.fromEntries(states) },
  };
  if ([...states.values()].some((state) => !state.deployed)) {
    throw new PartialFailureError(failureSummary(KIND, states, inputs.osimage), id, outputs);
  }
  return outputs;
}

function enumProblems(value: unknown, what: string, allowed: readonly string[]): string[] {
  if (value === undefined || isUnknown(value) || allowed.includes(value as string)) return [];
  return [`${what} must be ${allowed.map((a) => `"${a}"`).join(" or ")}, got ${describe(value)}`];
}

function positiveNumberProblems(value: unknown, what: string): string[] {
  if (value === undefined || isUnknown(value)) return [];
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    return [`${what} must be a number greater than 0, got ${describe(value)}`];
  }
  return [];
}

/** Builds the spec; `report` receives progress lines (stderr by default). */
export function deploymentSpecWith(
  report: (line: string) => void,
): ResourceSpec<DeploymentInputs, DeploymentOutputs> {
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
      add("onDelete", enumProblems(news.onDelete, "onDelete", ["keep", "offline"]));
      add("connection", connectionProblems(news.connection));
      if (failures.length > 0) return { failures };
      const given = news as Partial<DeploymentInputs>;
      return { inputs: withDefaults(given, news.nodes as DeploymentInputs["nodes"], news.osimage as string) };
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
      return (
        settings.some((key) => olds[key] !== news[key]) ||
        JSON.stringify(olds.nodes) !== JSON.stringify(news.nodes) ||
        Object.values(olds.nodeStates ?? {}).some((state) => !state.deployed)
      );
    },

    async create(client, inputs) {
      const id = rangeOf(inputs.nodes);
      const names = await expandNodes(client, KIND, inputs.nodes);
      return { id, outputs: await deployOnto(client, id, inputs, names, {}, report) };
    },

    async read(client, id, olds) {
      const nodes = olds.nodes ?? id;
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
      const inputs = withDefaults(olds, nodes, osimage);
      return { id, inputs, outputs: { ...inputs, nodeStates } };
    },

    async update(client, id, olds, news) {
      const names = await expandNodes(client, KIND, news.nodes);
      const previous = olds.nodeStates ?? {};
      const imageChanged = olds.osimage !== news.osimage;
      const targets = imageChanged ? names : names.filter((node) => previous[node]?.deployed !== true);
      const kept = Object.fromEntries(
        names.filter((n) => previous[n]).map((n) => [n, previous[n] as NodeState]),
      );
      if (targets.length > 0) {
        report(
          `${rangeOf(news.nodes)}: deploying ${news.osimage} onto ${targets.length} of ${names.length} node(s)` +
            (imageChanged ? ` (image changed from ${olds.osimage})` : " (new or not yet booted)"),
        );
      }
      return deployOnto(client, id, news, targets, kept, report);
    },

    async delete(client, _id, olds) {
      if (olds.onDelete !== "offline") return;
      const recorded = Object.keys(olds.nodeStates ?? {});
      for (const listed of batches(recorded, olds.batchSize ?? DEPLOYMENT_DEFAULTS.batchSize)) {
        // Nodes removed before the deployment need nothing: act on those that still exist.
        const existing = await client.nodes.getMany(listed, { attrs: ["groups"] });
        const batch = listed.filter((node) => existing.has(node));
        if (batch.length === 0) continue;
        const range = compactNoderange(batch);
        await client.nodes.setBootstate(range, { state: "offline" });
        await client.nodes.setPower(range, "off");
        report(`${range}: nodeset offline, powered off`);
      }
    },
  };
}

export const deploymentSpec = deploymentSpecWith(reportToStderr);
