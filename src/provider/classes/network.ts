import type * as pulumi from "@pulumi/pulumi";
import type { XcatNetworkAttributes } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import { type AttributeObjectArgs, AttributeObjectResource, type ConnectionArgs } from "./common";

const provider = thinProvider("xcat:Network");

/** The attributes of a network (net and mask aside), as xCAT's schema defines and describes them. */
export interface NetworkAttributes
  extends Omit<XcatNetworkAttributes<pulumi.Input<string>>, "net" | "mask"> {}

/** Inputs of {@link Network}. */
export interface NetworkArgs {
  /** The network's name; defaults to the Pulumi resource name. Changing it replaces the network. */
  readonly name?: pulumi.Input<string>;
  /** The network address, e.g. "10.0.0.0". */
  readonly net: pulumi.Input<string>;
  /** The netmask, e.g. "255.255.0.0". */
  readonly mask: pulumi.Input<string>;
  /** gateway, mgtifname, dhcpserver, tftpserver, nameservers, dynamicrange, domain, mtu, … */
  readonly attributes?: pulumi.Input<NetworkAttributes>;
  /** Take over a network that already exists with other values, and make it match. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * An xCAT network definition. Id: the network name. xCAT refuses two networks with the same
 * net and mask.
 *
 * @example
 * new xcat.Network("mgmt", { net: "10.0.0.0", mask: "255.255.0.0", attributes: { mgtifname: "eth0", gateway: "10.0.0.254" } });
 */
export class Network extends AttributeObjectResource {
  declare readonly net: pulumi.Output<string>;
  declare readonly mask: pulumi.Output<string>;

  constructor(name: string, args: NetworkArgs, opts?: pulumi.CustomResourceOptions) {
    const own = { name: args.name ?? name, net: args.net, mask: args.mask };
    super(provider, "Network", name, own, args as AttributeObjectArgs, opts);
  }

  /** Reads an existing network by its name. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Network {
    return new Network(name, { net: "", mask: "" }, { ...opts, id });
  }
}
