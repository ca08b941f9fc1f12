/**
 * client.services: cluster services on the management node (DNS, DHCP, hosts) and SLP discovery.
 */
import type { Engine } from "../engine";
import { keywordSegment } from "../names";
import type { CallOptions } from "../types";
import { attributeMaps, type PerNode } from "./results";

/** SLP service types xCAT knows; any other keyword is passed on. */
export type SlpServiceType =
  | "CEC"
  | "FRAME"
  | "MM"
  | "IVM"
  | "RSA"
  | "HMC"
  | "CMM"
  | "IMM2"
  | "FSP"
  | (string & {});

/**
 * Management-node services. Regenerating configuration is idempotent, so these POSTs are retried.
 *
 * @example
 * ```ts
 * await client.services.makeHosts();
 * await client.services.makeDns();
 * ```
 */
export class ServicesApi {
  readonly #engine: Engine;

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /**
   * Initializes DNS for the whole cluster (makedns -n).
   *
   * @example
   * ```ts
   * await client.services.makeDns();
   * ```
   */
  async makeDns(options?: CallOptions): Promise<void> {
    await this.#engine.call({ route: "services.makeDns", kind: "write", options });
  }

  /**
   * Writes DHCP configuration for all networks and restarts DHCP (makedhcp -n).
   *
   * @example
   * ```ts
   * await client.services.makeDhcp();
   * ```
   */
  async makeDhcp(options?: CallOptions): Promise<void> {
    await this.#engine.call({ route: "services.makeDhcp", kind: "write", options });
  }

  /**
   * Writes hosts entries for all nodes (makehosts).
   *
   * @example
   * ```ts
   * await client.services.makeHosts();
   * ```
   */
  async makeHosts(options?: CallOptions): Promise<void> {
    await this.#engine.call({ route: "services.makeHosts", kind: "write", options });
  }

  /**
   * Hardware answering SLP (lsslp -z), as attribute maps; `type` limits it to one service type.
   * The real xcatws sometimes ignores the type (two handlers match that path); filter on `hwtype`
   * if it matters.
   *
   * @example
   * ```ts
   * const cmms = await client.services.slpnodes("CMM");
   * ```
   */
  async slpnodes(
    type?: SlpServiceType,
    options?: CallOptions,
  ): Promise<PerNode<Readonly<Record<string, string>>>> {
    if (type !== undefined) return this.slpnodesOfType(type, options);
    const answer = await this.#engine.call({ route: "services.slpnodes", options });
    return attributeMaps(answer);
  }

  /**
   * SLP hardware of one service type (lsslp -z -s type).
   *
   * @example
   * ```ts
   * const fsps = await client.services.slpnodesOfType("FSP");
   * ```
   */
  async slpnodesOfType(
    type: SlpServiceType,
    options?: CallOptions,
  ): Promise<PerNode<Readonly<Record<string, string>>>> {
    const answer = await this.#engine.call({
      route: "services.slpnodesOfType",
      params: { item: keywordSegment(type, "SLP service type") },
      options,
    });
    return attributeMaps(answer);
  }
}
