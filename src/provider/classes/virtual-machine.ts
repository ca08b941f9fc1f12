import type * as pulumi from "@pulumi/pulumi";
import { ThinDynamicResource, thinProvider } from "../thin-provider";
import { type ConnectionArgs, connectionInput, registeredProps, resourceOptions } from "./common";
import { claimObject } from "./object-claims";

const provider = thinProvider("xcat:VirtualMachine");

/** Inputs of {@link VirtualMachine}. */
export interface VirtualMachineArgs {
  /** The VM node (an xcat.Node with e.g. mgt "kvm" and a vmhost). Changing it replaces the guest. */
  readonly node: pulumi.Input<string>;
  readonly cpus: pulumi.Input<number>;
  readonly memoryMiB: pulumi.Input<number>;
  /** Sizes of the guest's disks in order, in GiB. Adding or growing disks updates in place; removing or shrinking one replaces the guest. */
  readonly disksGiB: pulumi.Input<pulumi.Input<number>[]>;
  /** Create the guest from this clone master (clonevm). Changing it replaces the guest. */
  readonly cloneFrom?: pulumi.Input<string>;
  /** Remove the guest's disk images when it is deleted (rmvm -p). Default true. */
  readonly purgeOnDelete?: pulumi.Input<boolean>;
  /** Take over a guest that already exists with other sizes, and make it match. */
  readonly adopt?: pulumi.Input<boolean>;
  readonly connection?: pulumi.Input<ConnectionArgs>;
}

/**
 * The virtual hardware of a VM node: mkvm/chvm/rmvm/clonevm through xCAT. Id: the node name.
 *
 * @example
 * const vm01 = new xcat.Node("vm01", { groups: ["vms", "all"], attributes: { mgt: "kvm", vmhost: "kvmhost01" } });
 * new xcat.VirtualMachine("vm01", { node: vm01.name, cpus: 4, memoryMiB: 8192, disksGiB: [40] });
 */
export class VirtualMachine extends ThinDynamicResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly node: pulumi.Output<string>;
  declare readonly cpus: pulumi.Output<number>;
  declare readonly memoryMiB: pulumi.Output<number>;
  declare readonly disksGiB: pulumi.Output<number[]>;
  /** The guest's disk devices in order (vda, vdb, …). */
  declare readonly diskDevices: pulumi.Output<string[]>;

  constructor(name: string, args: VirtualMachineArgs, opts?: pulumi.CustomResourceOptions) {
    const connection = connectionInput(args.connection);
    const inputs = opts?.id
      ? { connection }
      : {
          node: args.node,
          cpus: args.cpus,
          memoryMiB: args.memoryMiB,
          disksGiB: args.disksGiB,
          cloneFrom: args.cloneFrom,
          purgeOnDelete: args.purgeOnDelete,
          adopt: args.adopt,
          connection,
        };
    super(
      provider,
      name,
      registeredProps(["name", "node", "cpus", "memoryMiB", "disksGiB", "diskDevices"], inputs),
      resourceOptions(opts, []),
      "xcat",
      "VirtualMachine",
    );
    // One guest per VM node: two resources would resize it against each other, and deleting
    // either removes it (rmvm). Resource.get only reads: it claims nothing.
    if (!opts?.id)
      claimObject(this, "xcat:VirtualMachine", name, "virtual machine", args.node, args.connection);
  }

  /** Reads the guest of a VM node by the node's name. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): VirtualMachine {
    return new VirtualMachine(name, { node: id, cpus: 1, memoryMiB: 1, disksGiB: [] }, { ...opts, id });
  }
}
