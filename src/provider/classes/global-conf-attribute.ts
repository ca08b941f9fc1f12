import type * as pulumi from "@pulumi/pulumi";
import { ThinDynamicResource, thinProvider } from "../thin-provider";
import { type ConnectionArgs, connectionInput, registeredProps, resourceOptions } from "./common";
import { claimObject } from "./object-claims";

const provider = thinProvider("xcat:GlobalConfAttribute");

/** Inputs of {@link GlobalConfAttribute}. */
export interface GlobalConfAttributeArgs {
  /** The site attribute, e.g. "domain"; defaults to the Pulumi resource name. Changing it replaces the resource. */
  readonly name?: pulumi.Input<string>;
  /** Its value (must not be empty: delete the resource to remove the attribute). */
  readonly value: pulumi.Input<string>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * One attribute of xCAT's site configuration (`chdef -t site`). It is a setting, not an object:
 * create sets it and remembers the value it found; delete puts that value back, or removes the
 * attribute if there was none. Id: the attribute name.
 *
 * @example
 * new xcat.GlobalConfAttribute("domain", { value: "lab.example.org" });
 */
export class GlobalConfAttribute extends ThinDynamicResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly value: pulumi.Output<string>;
  /** The value before this resource set it; null when the attribute was not set. */
  declare readonly previousValue: pulumi.Output<string | null>;

  constructor(name: string, args: GlobalConfAttributeArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = connectionInput(args.connection);
    const inputs = opts?.id ? { connection } : { name: args.name ?? name, value: args.value, connection };
    super(
      provider,
      name,
      registeredProps(["name", "value", "previousValue"], inputs),
      resourceOptions(opts, []),
      "xcat",
      "GlobalConfAttribute",
    );
    if (!opts?.id) {
      claimObject(
        this,
        "xcat:GlobalConfAttribute",
        name,
        "site attribute",
        args.name ?? name,
        args.connection,
      );
    }
  }

  /** Reads a site attribute by its name. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    opts?: pulumi.CustomResourceOptions,
  ): GlobalConfAttribute {
    return new GlobalConfAttribute(name, { value: "" }, { ...opts, id });
  }
}
