import type * as pulumi from "@pulumi/pulumi";
import { ThinDynamicResource, thinProvider } from "../thin-provider";

const provider = thinProvider("xcat:Echo");

/** Inputs of {@link Echo}. */
export interface EchoArgs {
  readonly message: pulumi.Input<string>;
}

/**
 * A diagnostic resource that talks to no xCAT service: it stores `message` and reports its
 * `length`. Use it to check that Pulumi, the Node.js language host and this package's dynamic
 * provider work together on a machine before pointing a program at a management node.
 *
 * @example
 * const probe = new xcat.Echo("toolchain-check", { message: "hello" });
 * export const length = probe.length; // 5
 */
export class Echo extends ThinDynamicResource {
  declare readonly message: pulumi.Output<string>;
  declare readonly length: pulumi.Output<number>;

  constructor(name: string, args: EchoArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { message: args.message, length: undefined }, opts, "xcat", "Echo");
  }
}
