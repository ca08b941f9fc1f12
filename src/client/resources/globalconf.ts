/**
 * client.globalconf: the site table, xCAT's cluster-wide settings (one object, "clustersite").
 */
import type { Engine } from "../engine";
import { attributeListSegment } from "../names";
import type { Attributes, CallOptions } from "../types";
import { attributeMaps } from "./results";

/**
 * Cluster-wide settings (domain, master, nameservers, tokenexpiredays, ...). Names are free-form.
 *
 * @example
 * ```ts
 * await client.globalconf.setAttrs({ domain: "cluster.example" });
 * const { domain } = await client.globalconf.get();
 * ```
 */
export class GlobalconfApi {
  readonly #engine: Engine;

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /**
   * Every site setting that has a value.
   *
   * @example
   * ```ts
   * const site = await client.globalconf.get();
   * ```
   */
  async get(options?: CallOptions): Promise<Attributes> {
    const answer = await this.#engine.call({ route: "globalconf.get", options });
    return firstObject(attributeMaps(answer));
  }

  /**
   * The named settings; settings that do not exist are absent (xcatws answers them with nothing).
   *
   * @example
   * ```ts
   * const { master } = await client.globalconf.getAttrs(["master"]);
   * ```
   */
  async getAttrs(names: readonly string[], options?: CallOptions): Promise<Attributes> {
    const answer = await this.#engine.call({
      route: "globalconf.getAttrs",
      params: { attrs: attributeListSegment(names, "site attribute") },
      options,
    });
    return firstObject(attributeMaps(answer));
  }

  /**
   * Adds or changes settings; an empty string removes one.
   *
   * @example
   * ```ts
   * await client.globalconf.setAttrs({ tokenexpiredays: "never" });
   * ```
   */
  async setAttrs(values: Readonly<Record<string, string>>, options?: CallOptions): Promise<void> {
    const names = Object.keys(values);
    // xcatws ignores the list in the URL and sets the body's keys; the list is sent for the logs.
    await this.#engine.call({
      route: "globalconf.setAttrs",
      params: { attrs: attributeListSegment(names, "site attribute") },
      body: { ...values },
      options,
    });
  }

  /**
   * Removes settings. xcatws turns `DELETE /globalconf/attrs/a,b` into the single operand `a,b=`,
   * which deletes nothing, so each name is sent as its own request.
   *
   * @example
   * ```ts
   * await client.globalconf.deleteAttrs(["obsoletekey"]);
   * ```
   */
  async deleteAttrs(names: readonly string[], options?: CallOptions): Promise<void> {
    attributeListSegment(names, "site attribute");
    for (const name of names) {
      await this.#engine.call({
        route: "globalconf.deleteAttrs",
        params: { attrs: attributeListSegment([name], "site attribute") },
        options,
      });
    }
  }
}

function firstObject(maps: Readonly<Record<string, Attributes>>): Attributes {
  const values = Object.values(maps);
  return values.length === 0 ? {} : Object.assign({}, ...values);
}
