import type * as pulumi from "@pulumi/pulumi";
import type { XcatNodeAttributes } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import { type AttributeObjectArgs, AttributeObjectResource, type ConnectionArgs } from "./common";

const provider = thinProvider("xcat:Node");

/** The attributes of a node (groups aside), as xCAT's schema defines and describes them. */
export interface NodeAttributes extends Omit<XcatNodeAttributes<pulumi.Input<string>>, "groups"> {}

/** Inputs of {@link Node}. */
export interface NodeArgs {
  /** The node's name in xCAT; defaults to the Pulumi resource name. Changing it replaces the node. */
  readonly name?: pulumi.Input<string>;
  /** The groups the node belongs to, in inheritance order (xCAT requires at least one). */
  readonly groups: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Any other node attributes (mgt, arch, netboot, provmethod, ip, mac, bmc, vmhost, …). Only
   * the ones given are managed; removing one clears it in xCAT. Password attributes are stored
   * as secrets.
   */
  readonly attributes?: pulumi.Input<NodeAttributes>;
  /** Take over a node that already exists with other values, and make it match the program. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * An xCAT node definition (`mkdef -t node`). Id: the node name.
 *
 * @example
 * const cn001 = new xcat.Node("cn001", {
 *   groups: ["compute", "all"],
 *   attributes: { mgt: "ipmi", bmc: "10.1.0.1", ip: "10.0.0.1", mac: "52:54:00:00:00:01" },
 * });
 */
export class Node extends AttributeObjectResource {
  declare readonly groups: pulumi.Output<string[]>;

  constructor(name: string, args: NodeArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      "Node",
      name,
      { name: args.name ?? name, groups: args.groups },
      args as AttributeObjectArgs,
      opts,
    );
  }

  /** Reads an existing node by its name; every attribute xCAT reports is taken as declared. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Node {
    return new Node(name, { groups: [] }, { ...opts, id });
  }
}
