/**
 * `xcat:PowerState`: holds nodes powered `on` or `off` (rpower). Create and update read the
 * power of the whole range (one `rpower stat` request) and switch only the nodes that differ
 * (one noderange request). Refresh reports each node's power (`powerStates`), so a node switched
 * by hand shows as a diff; it is switched back by the next `up`, never by refresh. Delete leaves
 * the nodes as they are.
 */
import type { XcatClient } from "../../client";
import { compactNoderange } from "../node-batches";
import { type CommonInputs, type ReadOutcome, ResourceConflictError, type ResourceSpec } from "../spec";
import { connectionProblems, describe, failuresOn, type InputFailure, isUnknown } from "../validation";
import { expandNodes, nodesInputProblems, rangeOf } from "./node-range-input";

const KIND = "xcat:PowerState";

export interface PowerStateInputs extends CommonInputs {
  readonly nodes: string | string[];
  readonly power: "on" | "off";
}

export interface PowerStateOutputs extends PowerStateInputs {
  /** Each node's power as last read or set. */
  readonly powerStates: Record<string, string>;
}

/** Switches the nodes whose power differs from `power`; returns every node's power afterwards. */
async function hold(client: XcatClient, inputs: PowerStateInputs): Promise<Record<string, string>> {
  const names = await expandNodes(client, KIND, inputs.nodes);
  const current = await client.nodes.getPower(compactNoderange(names));
  const differing = names.filter((node) => current[node] !== inputs.power);
  if (differing.length > 0) await client.nodes.setPower(compactNoderange(differing), inputs.power);
  return Object.fromEntries(names.map((node) => [node, inputs.power]));
}

/** What a read found, on any backend: the recorded `power` (else what the nodes show) and each node's power. */
export function powerStateRead(
  id: string,
  nodes: PowerStateInputs["nodes"],
  olds: Partial<PowerStateOutputs>,
  powerStates: Record<string, string>,
): ReadOutcome<PowerStateInputs, PowerStateOutputs> {
  const inputs: PowerStateInputs = {
    nodes,
    power: olds.power ?? (Object.values(powerStates).every((p) => p === "off") ? "off" : "on"),
    ...(olds.connection ? { connection: olds.connection } : {}),
  };
  return { id, inputs, outputs: { ...inputs, powerStates } };
}

/** The nodes of `names` that exist: one listing of node names, however many. */
async function existingNodes(client: XcatClient, names: readonly string[]): Promise<string[]> {
  const defined = new Set(await client.nodes.list());
  return names.filter((name) => defined.has(name));
}

export const powerStateSpec: ResourceSpec<PowerStateInputs, PowerStateOutputs> = {
  kind: KIND,

  check(news) {
    const failures: InputFailure[] = [];
    failures.push(...failuresOn("nodes", nodesInputProblems(news.nodes)));
    if (!isUnknown(news.power) && news.power !== "on" && news.power !== "off") {
      failures.push(...failuresOn("power", [`power must be "on" or "off", got ${describe(news.power)}`]));
    }
    failures.push(...failuresOn("connection", connectionProblems(news.connection)));
    if (failures.length > 0) return { failures };
    return {
      inputs: {
        nodes: news.nodes,
        power: news.power,
        ...(news.connection !== undefined ? { connection: news.connection } : {}),
      } as PowerStateInputs,
    };
  },

  replaceKeys() {
    return [];
  },

  hasChanges(olds, news) {
    return (
      olds.power !== news.power ||
      JSON.stringify(olds.nodes) !== JSON.stringify(news.nodes) ||
      Object.values(olds.powerStates ?? {}).some((power) => power !== news.power)
    );
  },

  async create(client, inputs) {
    return { id: rangeOf(inputs.nodes), outputs: { ...inputs, powerStates: await hold(client, inputs) } };
  },

  async read(client, id, olds) {
    const nodes = olds.nodes ?? id;
    // A list is read as a list, as Deployment reads it: a node deleted by hand since is left out
    // (it shows as that Node deleted) rather than the whole resource reading as gone. A noderange
    // that no longer resolves: the nodes are gone, so is what this resource held.
    const names = Array.isArray(nodes)
      ? await existingNodes(client, nodes)
      : await expandNodes(client, KIND, nodes).catch((error: unknown) => {
          if (error instanceof ResourceConflictError) return undefined;
          throw error;
        });
    if (!names || names.length === 0) return undefined;
    return powerStateRead(id, nodes, olds, await client.nodes.getPower(compactNoderange(names)));
  },

  async update(client, _id, _olds, news) {
    return { ...news, powerStates: await hold(client, news) };
  },

  async delete() {
    // Power is left as it is: removing the resource stops holding it.
  },
};
