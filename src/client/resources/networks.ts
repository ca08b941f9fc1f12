/**
 * client.networks: network definitions and makenetworks.
 */
import type { Engine } from "../engine";
import type { AttributeInput, CallOptions } from "../types";
import { type CreateOptions, type DeleteOptions, NamedObjects } from "./objects";

/**
 * Networks. Creating one needs `net` and `mask`; xCAT refuses a second network with the same pair.
 *
 * @example
 * ```ts
 * await client.networks.create("mgmt", { net: "10.0.0.0", mask: "255.255.0.0", mgtifname: "eth1" });
 * ```
 */
export class NetworksApi extends NamedObjects {
  constructor(engine: Engine) {
    super(engine, { prefix: "networks", param: "netname", what: "network name" });
  }

  /**
   * Defines a network (mkdef). Throws XcatAlreadyExistsError when the name (or its net+mask) exists.
   *
   * @example
   * ```ts
   * await client.networks.create("mgmt", { net: "10.0.0.0", mask: "255.255.0.0" });
   * ```
   */
  create(name: string, attrs: AttributeInput, options?: CreateOptions): Promise<void> {
    return this.createObject(name, attrs, options);
  }

  /**
   * Removes network definitions (rmdef).
   *
   * @example
   * ```ts
   * await client.networks.delete("mgmt");
   * ```
   */
  delete(names: string | readonly string[], options?: DeleteOptions): Promise<void> {
    return this.deleteObjects(names, options);
  }

  /**
   * Defines networks from the management node's interfaces (makenetworks). xcatws ignores any
   * body here; repeating it is harmless.
   *
   * @example
   * ```ts
   * await client.networks.makenetworks();
   * ```
   */
  async makenetworks(options?: CallOptions): Promise<void> {
    await this.engine.call({ route: "networks.makenetworks", kind: "write", options });
  }
}
