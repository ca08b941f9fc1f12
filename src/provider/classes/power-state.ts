import type * as pulumi from "@pulumi/pulumi";
import { ThinDynamicResource, thinProvider } from "../thin-provider";
import { type ConnectionArgs, connectionInput, registeredProps, resourceOptions } from "./common";

const provider = thinProvider("xcat:PowerState");

/** Inputs of {@link PowerState}. */
export interface PowerStateArgs {
  /** A noderange or group, or a list of node names. */
  readonly nodes: pulumi.Input<string | pulumi.Input<string>[]>;
  readonly power: pulumi.Input<"on" | "off">;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * Holds nodes powered on or off (rpower), switching only the nodes that differ. Refresh shows a
 * node switched by hand; `up` switches it back. Delete leaves the power as it is. Id: the noderange.
 *
 * @example
 * new xcat.PowerState("compute-on", { nodes: "compute", power: "on" }, { dependsOn: [deployment] });
 */
export class PowerState extends ThinDynamicResource {
  declare readonly nodes: pulumi.Output<string | string[]>;
  declare readonly power: pulumi.Output<"on" | "off">;
  /** Each node's power as last read or set. */
  declare readonly powerStates: pulumi.Output<Record<string, string>>;

  constructor(name: string, args: PowerStateArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = connectionInput(args.connection);
    const inputs = opts?.id ? { connection } : { nodes: args.nodes, power: args.power, connection };
    super(
      provider,
      name,
      registeredProps(["nodes", "power", "powerStates"], inputs),
      resourceOptions(opts, []),
      "xcat",
      "PowerState",
    );
  }

  /** Reads the power of a noderange without managing it. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): PowerState {
    return new PowerState(name, { nodes: id, power: "on" }, { ...opts, id });
  }
}
