import * as pulumi from "@pulumi/pulumi";
import type { XcatOsimageAttributeName } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import {
  type AttributeObjectArgs,
  attributeObjectProps,
  type ConnectionArgs,
  resourceOptions,
} from "./common";

const provider = thinProvider("xcat:Osimage");

/** Inputs of {@link Osimage}. */
export interface OsimageArgs {
  /** The image's name; defaults to the Pulumi resource name. Changing it replaces the image. */
  readonly name?: pulumi.Input<string>;
  /** imagetype, provmethod, profile, osvers, osarch, template, pkglist, rootimgdir, … */
  readonly attributes: pulumi.Input<Partial<Record<XcatOsimageAttributeName, pulumi.Input<string>>>>;
  /** Take over an image that already exists with other values, and make it match. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * An xCAT OS image definition (`mkdef -t osimage`). Id: the image name.
 *
 * @example
 * new xcat.Osimage("rhels9-x86_64-netboot-compute", {
 *   attributes: { imagetype: "linux", provmethod: "netboot", osvers: "rhels9.4", osarch: "x86_64", profile: "compute" },
 * });
 */
export class Osimage extends pulumi.dynamic.Resource {
  declare readonly name: pulumi.Output<string>;
  declare readonly attributes: pulumi.Output<Record<string, string>>;
  declare readonly allAttributes: pulumi.Output<Record<string, string>>;

  constructor(name: string, args: OsimageArgs, opts?: pulumi.CustomResourceOptions) {
    const props = attributeObjectProps(opts, { name: args.name ?? name }, args as AttributeObjectArgs);
    super(provider, name, props, resourceOptions(opts, ["secretAttributes"]), "xcat", "Osimage");
  }

  /** Reads an existing OS image by its name. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Osimage {
    return new Osimage(name, { attributes: {} }, { ...opts, id });
  }
}
