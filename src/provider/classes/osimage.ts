import type * as pulumi from "@pulumi/pulumi";
import type { XcatOsimageAttributes } from "../../contract/xcat-schema.generated";
import { thinProvider } from "../thin-provider";
import { type AttributeObjectArgs, AttributeObjectResource, type NamedObjectArgs } from "./common";

const provider = thinProvider("xcat:Osimage");

/** Inputs of {@link Osimage}: its name and attributes (imagetype, provmethod, profile, osvers, osarch, template, pkglist, …). */
export type OsimageArgs = NamedObjectArgs<OsimageAttributes>;

/** The attributes of an OS image, as xCAT's schema defines and describes them. */
export interface OsimageAttributes extends XcatOsimageAttributes<pulumi.Input<string>> {}

/**
 * An xCAT OS image definition (`mkdef -t osimage`). Id: the image name.
 *
 * @example
 * new xcat.Osimage("rhels9-x86_64-netboot-compute", {
 *   attributes: { imagetype: "linux", provmethod: "netboot", osvers: "rhels9.4", osarch: "x86_64", profile: "compute" },
 * });
 */
export class Osimage extends AttributeObjectResource {
  constructor(name: string, args: OsimageArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, "Osimage", name, { name: args.name ?? name }, args as AttributeObjectArgs, opts);
  }

  /** Reads an existing OS image by its name. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): Osimage {
    return new Osimage(name, { attributes: {} }, { ...opts, id });
  }
}
