/**
 * `xcat:PowerState` on Confluent: the same resource (see resources/power-state.ts) through
 * Confluent's `power/state` per noderange (core.py; real-confluent.md item 13). A node whose BMC
 * fails answers its own error inside a 200 (item 14): that node fails the operation by name.
 */
import type { ConfluentClient } from "../../client/confluent";
import { rangeOf } from "../resources/node-range-input";
import {
  type PowerStateInputs,
  type PowerStateOutputs,
  powerStateRead,
  powerStateSpec,
} from "../resources/power-state";
import { ResourceConflictError, type ResourceSpec } from "../spec";
import { expandOnConfluent, failedNodes } from "./nodes";

const KIND = "xcat:PowerState";

function refuseFailures(failures: ReadonlyMap<string, string>, doing: string): void {
  if (failures.size === 0) return;
  const listed = [...failures].map(([node, why]) => `${node}: ${why}`).join("; ");
  throw new ResourceConflictError(`${KIND}: ${doing} failed on ${failures.size} node(s): ${listed}`);
}

async function powers(client: ConfluentClient, names: readonly string[]): Promise<Record<string, string>> {
  const read = await client.nodes.getPower(names);
  refuseFailures(failedNodes(read), "reading the power state");
  return Object.fromEntries(
    names.map((node) => {
      const result = read.get(node);
      return [node, result && "value" in result ? result.value : ""];
    }),
  );
}

async function hold(client: ConfluentClient, inputs: PowerStateInputs): Promise<Record<string, string>> {
  const names = await expandOnConfluent(client, KIND, inputs.nodes);
  const current = await powers(client, names);
  const differing = names.filter((node) => current[node] !== inputs.power);
  if (differing.length > 0)
    refuseFailures(
      failedNodes(await client.nodes.setPower(differing, inputs.power)),
      `power ${inputs.power}`,
    );
  return Object.fromEntries(names.map((node) => [node, inputs.power]));
}

export const confluentPowerStateSpec: ResourceSpec<PowerStateInputs, PowerStateOutputs, ConfluentClient> = {
  kind: KIND,
  check: (news) => powerStateSpec.check(news),
  replaceKeys: () => [],
  hasChanges: (olds, news) => powerStateSpec.hasChanges(olds, news),
  async create(client, inputs) {
    return { id: rangeOf(inputs.nodes), outputs: { ...inputs, powerStates: await hold(client, inputs) } };
  },
  async read(client, id, olds) {
    const nodes = olds.nodes ?? id;
    const names = await expandOnConfluent(client, KIND, nodes).catch((error: unknown) => {
      if (error instanceof ResourceConflictError) return undefined;
      throw error;
    });
    if (!names || names.length === 0) return undefined;
    return powerStateRead(id, nodes, olds, await powers(client, names));
  },
  async update(client, _id, _olds, news) {
    return { ...news, powerStates: await hold(client, news) };
  },
  async delete() {
    // Power is left as it is, as on xCAT: removing the resource stops holding it.
  },
};
