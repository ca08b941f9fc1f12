/**
 * `xcat:GlobalConfAttribute`: one attribute of xCAT's site configuration (the `clustersite`
 * object, table `site`). It is a setting, not an object: create sets it and remembers the value
 * it found, and delete puts that value back, or removes the attribute when there was none.
 */
import type { XcatClient } from "../../client";
import type { CommonInputs, ResourceSpec } from "../spec";
import {
  connectionProblems,
  failuresOn,
  type InputFailure,
  nameProblems,
  stringProblems,
} from "../validation";

export interface GlobalConfAttributeInputs extends CommonInputs {
  readonly name: string;
  readonly value: string;
}

export interface GlobalConfAttributeOutputs extends GlobalConfAttributeInputs {
  /** The value the attribute had before this resource set it; null when it was not set. */
  readonly previousValue: string | null;
}

async function currentValue(client: XcatClient, name: string): Promise<string | undefined> {
  const values = await client.globalconf.getAttrs([name]);
  const value = values[name];
  return value === undefined || value === "" ? undefined : value;
}

export const globalConfAttributeSpec: ResourceSpec<GlobalConfAttributeInputs, GlobalConfAttributeOutputs> = {
  kind: "xcat:GlobalConfAttribute",

  check(news) {
    const failures: InputFailure[] = [
      ...failuresOn("name", nameProblems(news.name, "name")),
      ...stringProblems(news.value, "value").map((reason) => ({
        property: "value",
        reason: `${reason} (to remove a site attribute, delete the resource)`,
      })),
      ...failuresOn("connection", connectionProblems(news.connection)),
    ];
    if (failures.length > 0) return { failures };
    const inputs = { name: news.name, value: news.value } as GlobalConfAttributeInputs;
    return {
      inputs:
        news.connection === undefined
          ? inputs
          : ({ ...inputs, connection: news.connection } as GlobalConfAttributeInputs),
    };
  },

  replaceKeys: (olds, news) => (olds.name !== news.name ? ["name"] : []),

  hasChanges: (olds, news) => olds.value !== news.value,

  async create(client, inputs) {
    const previous = await currentValue(client, inputs.name);
    if (previous !== inputs.value) await client.globalconf.setAttrs({ [inputs.name]: inputs.value });
    return { id: inputs.name, outputs: { ...inputs, previousValue: previous ?? null } };
  },

  async read(client, id, olds) {
    const value = await currentValue(client, id);
    if (value === undefined) return undefined;
    const inputs: GlobalConfAttributeInputs = {
      name: id,
      value,
      ...(olds.connection ? { connection: olds.connection } : {}),
    };
    return { id, inputs, outputs: { ...inputs, previousValue: olds.previousValue ?? null } };
  },

  async update(client, _id, olds, news) {
    await client.globalconf.setAttrs({ [news.name]: news.value });
    return { ...news, previousValue: olds.previousValue };
  },

  async delete(client, id, olds) {
    if (olds.previousValue !== null && olds.previousValue !== undefined) {
      await client.globalconf.setAttrs({ [id]: olds.previousValue });
    } else {
      await client.globalconf.deleteAttrs([id]);
    }
  },
};
