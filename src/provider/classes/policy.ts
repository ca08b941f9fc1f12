import type * as pulumi from "@pulumi/pulumi";
import type { XcatPolicyAttributes } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import { type AttributeObjectArgs, AttributeObjectResource, type ConnectionArgs } from "./common";

const provider = thinProvider("xcat:Policy");

/** The attributes of a policy rule, as xCAT's schema defines and describes them. */
export interface PolicyAttributes extends XcatPolicyAttributes<pulumi.Input<string>> {}

/** Inputs of {@link Policy}. */
export interface PolicyArgs {
  /** The policy's priority, its name in xCAT: "6", "4.5". Rules are tried in numeric order. Changing it replaces the policy. */
  readonly priority: pulumi.Input<string>;
  /** name (the user), rule (allow/deny/trusted), commands, host, noderange, parameters, time, usercomment. */
  readonly attributes: pulumi.Input<PolicyAttributes>;
  /** Take over a policy that already exists at this priority with other values, and make it match. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * A row of xCAT's policy table. Id and `name`: the priority. xCAT's own create would overwrite
 * an existing policy; this resource refuses unless it already matches or `adopt` is set.
 *
 * @example
 * new xcat.Policy("ops-account", { priority: "6", attributes: { name: "ops", rule: "allow" } });
 */
export class Policy extends AttributeObjectResource {
  declare readonly priority: pulumi.Output<string>;

  constructor(name: string, args: PolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      "Policy",
      name,
      { priority: args.priority },
      args as unknown as AttributeObjectArgs,
      opts,
    );
  }

  /** Reads an existing policy by its priority. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Policy {
    return new Policy(name, { priority: id, attributes: {} }, { ...opts, id });
  }
}
