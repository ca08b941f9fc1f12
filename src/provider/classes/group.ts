import type * as pulumi from "@pulumi/pulumi";
import type { XcatGroupAttributes } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import { type AttributeObjectArgs, AttributeObjectResource, type NamedObjectArgs } from "./common";

const provider = thinProvider("xcat:Group");

/** Inputs of {@link Group}: its name and the attributes member nodes inherit (mgt, netboot, provmethod, …). */
export type GroupArgs = NamedObjectArgs<GroupAttributes>;

/** The attributes of a group, as xCAT's schema defines and describes them. */
export interface GroupAttributes extends XcatGroupAttributes<pulumi.Input<string>> {}

/**
 * Group-level attributes that member nodes inherit. Membership comes from the nodes' `groups`.
 * Id: the group name. Deleting it clears its attributes and removes the group's definition.
 * A group that exists only because nodes name it is taken without `adopt`.
 *
 * @example
 * new xcat.Group("compute", { attributes: { mgt: "ipmi", netboot: "xnba", arch: "x86_64" } });
 */
export class Group extends AttributeObjectResource {
  constructor(name: string, args: GroupArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, "Group", name, { name: args.name ?? name }, args as AttributeObjectArgs, opts);
  }

  /** Reads an existing group by its name. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Group {
    return new Group(name, { attributes: {} }, { ...opts, id });
  }
}
