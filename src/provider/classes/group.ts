import * as pulumi from "@pulumi/pulumi";
import type { XcatGroupAttributeName } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import {
  type AttributeObjectArgs,
  attributeObjectProps,
  type ConnectionArgs,
  resourceOptions,
} from "./common";

const provider = thinProvider("xcat:Group");

/** Inputs of {@link Group}. */
export interface GroupArgs {
  /** The group's name; defaults to the Pulumi resource name. Changing it replaces the group. */
  readonly name?: pulumi.Input<string>;
  /** Attributes member nodes inherit (mgt, netboot, provmethod, …). Only these are managed. */
  readonly attributes: pulumi.Input<Partial<Record<XcatGroupAttributeName, pulumi.Input<string>>>>;
  /** Take over a group whose attributes are already set to other values, and make them match. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * Group-level attributes that member nodes inherit. Membership comes from the nodes' `groups`.
 * Id: the group name. Deleting it clears its attributes and removes the group's definition.
 *
 * @example
 * new xcat.Group("compute", { attributes: { mgt: "ipmi", netboot: "xnba", arch: "x86_64" } });
 */
export class Group extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly attributes: pulumi.Output<Record<string, string>>;
  /** Everything xCAT reports for the group (including `members`), without passwords. */
  declare readonly allAttributes: pulumi.Output<Record<string, string>>;

  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    const props = attributeObjectProps(opts, { name: args.name ?? name }, args as AttributeObjectArgs);
    super(provider, name, props, resourceOptions(opts, ["secretAttributes"]), "xcat", "Group");
  }

  /** Reads an existing group by its name. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Group {
    return new Group(name, { attributes: {} }, { ...opts, id });
  }
}
