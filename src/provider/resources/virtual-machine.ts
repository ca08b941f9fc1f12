/**
 * `xcat:VirtualMachine`: the guest of a VM node (mkvm/chvm/rmvm/clonevm on a node managed by a
 * hypervisor plugin, e.g. mgt=kvm with a vmhost). The node itself is an `xcat:Node`; this resource
 * owns its virtual hardware. CPUs, memory, added disks and grown disks change in place (chvm);
 * removing or shrinking a disk, or a new `cloneFrom`, replaces the guest.
 *
 * What it reads: the node's vmcpus and vmmemory attributes, and the guest's disks as the node's
 * inventory lists them ("Disk vda: 20 GB"). A guest with no disks is taken as not existing.
 */
import { isNotFound, type XcatClient } from "../../client";
import { ADOPT_ADVICE, type CommonInputs, ResourceConflictError, type ResourceSpec } from "../spec";
import {
  booleanProblems,
  connectionProblems,
  describe,
  failuresOn,
  type InputFailure,
  isUnknown,
  nameProblems,
  nodeNameProblems,
  positiveIntegerProblems,
} from "../validation";

export interface VirtualMachineInputs extends CommonInputs {
  readonly node: string;
  readonly cpus: number;
  readonly memoryMiB: number;
  readonly disksGiB: number[];
  readonly cloneFrom?: string;
  readonly purgeOnDelete: boolean;
  readonly adopt: boolean;
}

export interface VirtualMachineOutputs extends VirtualMachineInputs {
  readonly name: string;
  /** Disk device names in order (vda, vdb, …), as the hypervisor reports them. */
  readonly diskDevices: string[];
}

interface GuestState {
  readonly cpus: number;
  readonly memoryMiB: number;
  readonly disks: ReadonlyArray<{ readonly device: string; readonly sizeGiB: number }>;
}

/** The guest's current virtual hardware, or undefined when the node or its guest does not exist. */
async function readGuest(client: XcatClient, node: string): Promise<GuestState | undefined> {
  let attributes: Record<string, string>;
  let inventory: Record<string, unknown>;
  try {
    attributes = await client.nodes.getAttrs(node, ["vmcpus", "vmmemory"]);
    inventory = (await client.nodes.getInventory(node))[node] ?? {};
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  const disks = Object.entries(inventory)
    .map(([label, value]) => ({ match: /^Disk (\S+)$/.exec(label), value: String(value) }))
    .filter((entry) => entry.match !== null)
    .map(({ match, value }) => ({ device: match?.[1] ?? "", sizeGiB: Number.parseFloat(value) }))
    .sort((a, b) => a.device.localeCompare(b.device));
  if (disks.length === 0) return undefined;
  return {
    cpus: Number(attributes.vmcpus || 1),
    memoryMiB: Number(attributes.vmmemory || 0),
    disks,
  };
}

function outputsFrom(inputs: VirtualMachineInputs, guest: GuestState): VirtualMachineOutputs {
  return { ...inputs, name: inputs.node, diskDevices: guest.disks.map((disk) => disk.device) };
}

function inputsFrom(
  node: string,
  guest: GuestState,
  olds: Partial<VirtualMachineOutputs>,
): VirtualMachineInputs {
  return {
    node,
    cpus: guest.cpus,
    memoryMiB: guest.memoryMiB,
    disksGiB: guest.disks.map((disk) => disk.sizeGiB),
    ...(olds.cloneFrom !== undefined ? { cloneFrom: olds.cloneFrom } : {}),
    purgeOnDelete: olds.purgeOnDelete ?? true,
    adopt: olds.adopt ?? false,
    ...(olds.connection ? { connection: olds.connection } : {}),
  };
}

/** Why going from `current` disks to `desired` needs a new guest (chvm can only add and grow). */
function diskReplaceReason(current: readonly number[], desired: readonly number[]): string | undefined {
  if (desired.length < current.length) return "a disk was removed";
  const shrunk = current.findIndex((size, index) => (desired[index] ?? size) < size);
  return shrunk >= 0 ? `disk ${shrunk + 1} would shrink` : undefined;
}

/** Brings a guest's CPUs, memory and disks to the desired values with chvm (add and grow only). */
async function reshape(
  client: XcatClient,
  node: string,
  guest: GuestState,
  desired: VirtualMachineInputs,
): Promise<void> {
  const change: { cpuCount?: number; memorySizeMb?: number; addDisk?: string[] } = {};
  if (guest.cpus !== desired.cpus) change.cpuCount = desired.cpus;
  if (guest.memoryMiB !== desired.memoryMiB) change.memorySizeMb = desired.memoryMiB;
  const added = desired.disksGiB.slice(guest.disks.length);
  if (added.length > 0) change.addDisk = added.map((size) => `${size}G`);
  if (Object.keys(change).length > 0) await client.nodes.changeVm(node, change);
  // xCAT resizes one disk per call ("the first ':' becomes '='").
  for (const [index, disk] of guest.disks.entries()) {
    const size = desired.disksGiB[index];
    if (size !== undefined && size > disk.sizeGiB) {
      await client.nodes.changeVm(node, { resizeDisk: `${disk.device}:${size}G` });
    }
  }
}

function differs(guest: GuestState, desired: VirtualMachineInputs): string[] {
  const differing: string[] = [];
  if (guest.cpus !== desired.cpus) differing.push("cpus");
  if (guest.memoryMiB !== desired.memoryMiB) differing.push("memoryMiB");
  const sizes = guest.disks.map((disk) => disk.sizeGiB);
  if (sizes.length !== desired.disksGiB.length || sizes.some((size, i) => size !== desired.disksGiB[i])) {
    differing.push("disksGiB");
  }
  return differing;
}

export const virtualMachineSpec: ResourceSpec<VirtualMachineInputs, VirtualMachineOutputs> = {
  kind: "xcat:VirtualMachine",

  check(news) {
    const failures: InputFailure[] = [];
    const add = (property: string, problems: readonly string[]) =>
      failures.push(...failuresOn(property, problems));
    add("node", nodeNameProblems(news.node, "node"));
    add("cpus", positiveIntegerProblems(news.cpus, "cpus"));
    add("memoryMiB", positiveIntegerProblems(news.memoryMiB, "memoryMiB"));
    const disks = news.disksGiB;
    if (!isUnknown(disks)) {
      if (!Array.isArray(disks) || disks.length === 0) {
        add("disksGiB", [`disksGiB must be a non-empty list of disk sizes in GiB, got ${describe(disks)}`]);
      } else {
        for (const [index, size] of disks.entries()) {
          add("disksGiB", positiveIntegerProblems(size, `disksGiB[${index}]`));
        }
      }
    }
    if (news.cloneFrom !== undefined) add("cloneFrom", nameProblems(news.cloneFrom, "cloneFrom"));
    add("purgeOnDelete", booleanProblems(news.purgeOnDelete, "purgeOnDelete"));
    add("adopt", booleanProblems(news.adopt, "adopt"));
    add("connection", connectionProblems(news.connection));
    if (failures.length > 0) return { failures };
    return {
      inputs: {
        node: news.node,
        cpus: news.cpus,
        memoryMiB: news.memoryMiB,
        disksGiB: news.disksGiB,
        ...(news.cloneFrom !== undefined ? { cloneFrom: news.cloneFrom } : {}),
        purgeOnDelete: news.purgeOnDelete !== false,
        adopt: news.adopt === true,
        ...(news.connection !== undefined ? { connection: news.connection } : {}),
      } as VirtualMachineInputs,
    };
  },

  replaceKeys(olds, news) {
    const replaces: string[] = [];
    if (olds.node !== news.node) replaces.push("node");
    if (olds.cloneFrom !== news.cloneFrom) replaces.push("cloneFrom");
    if (!isUnknown(news.disksGiB) && diskReplaceReason(olds.disksGiB, news.disksGiB))
      replaces.push("disksGiB");
    return replaces;
  },

  hasChanges(olds, news) {
    return (
      olds.cpus !== news.cpus ||
      olds.memoryMiB !== news.memoryMiB ||
      JSON.stringify(olds.disksGiB) !== JSON.stringify(news.disksGiB) ||
      olds.purgeOnDelete !== news.purgeOnDelete
    );
  },

  async create(client, inputs) {
    const existing = await readGuest(client, inputs.node);
    if (existing) {
      const differing = differs(existing, inputs);
      if (differing.length > 0 && !inputs.adopt) {
        throw new ResourceConflictError(
          `xcat:VirtualMachine: the node '${inputs.node}' already has a guest with different ${differing.join(", ")}. ` +
            `Nothing was changed. ${ADOPT_ADVICE}.`,
        );
      }
      const reason = diskReplaceReason(
        existing.disks.map((disk) => disk.sizeGiB),
        inputs.disksGiB,
      );
      if (reason) {
        throw new ResourceConflictError(
          `xcat:VirtualMachine: cannot adopt the guest of '${inputs.node}': ${reason}, and chvm can only add and grow disks.`,
        );
      }
      await reshape(client, inputs.node, existing, inputs);
    } else if (inputs.cloneFrom !== undefined) {
      await client.nodes.cloneVm(inputs.node, { fromMaster: inputs.cloneFrom, detach: true });
      const cloned = await readGuest(client, inputs.node);
      if (!cloned)
        throw new Error(
          `xcat:VirtualMachine: clonevm of '${inputs.node}' reported success but no guest exists`,
        );
      await reshape(client, inputs.node, cloned, inputs);
    } else {
      await client.nodes.createVm(inputs.node, {
        cpuCount: inputs.cpus,
        memorySizeMb: inputs.memoryMiB,
        diskSize: inputs.disksGiB.map((size) => `${size}G`).join(","),
      });
    }
    const guest = await readGuest(client, inputs.node);
    if (!guest)
      throw new Error(
        `xcat:VirtualMachine: the guest of '${inputs.node}' is missing right after it was made`,
      );
    return { id: inputs.node, outputs: outputsFrom(inputs, guest) };
  },

  async read(client, id, olds) {
    const guest = await readGuest(client, id);
    if (!guest) return undefined;
    const inputs = inputsFrom(id, guest, olds);
    return { id, inputs, outputs: outputsFrom(inputs, guest) };
  },

  async update(client, id, _olds, news) {
    const guest = await readGuest(client, id);
    if (!guest)
      throw new Error(`xcat:VirtualMachine: the guest of '${id}' no longer exists; run pulumi refresh`);
    await reshape(client, id, guest, news);
    const updated = await readGuest(client, id);
    return outputsFrom(news, updated ?? guest);
  },

  async delete(client, id, olds) {
    try {
      await client.nodes.removeVm(id, { purge: olds.purgeOnDelete !== false, force: true });
    } catch (error) {
      // The guest or its node is already gone: nothing is left to delete.
      if (isNotFound(error) || !(await readGuest(client, id))) return;
      throw error;
    }
  },
};
