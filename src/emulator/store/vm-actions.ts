/**
 * Virtual machine commands (mkvm, chvm, rmvm, clonevm, rmigrate; kvm.pm, xcat-behavior.md §6).
 * They only apply to nodes managed by a hypervisor plugin (nodehm.mgt kvm or esx); other nodes
 * get xCAT's "Unable to identify plugin" node error. They change the simulated guest and the
 * node's vm.* columns (vm.cpus, vm.memory, vm.storage, vm.host, vm.master).
 */
import { nodeError, noSuitableVmHost, unableToIdentifyPlugin } from "../../contract/messages";
import type { Database } from "./database";
import type { Definitions } from "./definitions";
import { CommandError } from "./errors";
import type { Hardware, HardwareState, VirtualDisk } from "./hardware";
import type { ObjectAttributes } from "./object-reader";

const VM_MGTS = new Set(["kvm", "esx"]);
const DEFAULT_STORAGE = "dir:///var/lib/libvirt/images";

export interface MkvmOptions {
  readonly cpus?: string;
  readonly memory?: string;
  readonly disksize?: string;
  readonly master?: string;
  readonly force?: boolean;
}

export interface ChvmOptions {
  readonly memory?: string;
  readonly cpus?: string;
  readonly adddisk?: string;
  readonly purgedisk?: string;
  readonly resize?: string;
}

function parseSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([GMT]?)B?$/i.exec(text.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  const unit = (match[2] ?? "").toUpperCase();
  return unit === "M" ? n / 1024 : unit === "T" ? n * 1024 : n;
}

function devName(index: number): string {
  return `vd${String.fromCharCode(97 + index)}`;
}

export class VmActions {
  readonly #db: Database;
  readonly #defs: Definitions;
  readonly #hw: Hardware;

  constructor(db: Database, defs: Definitions, hw: Hardware) {
    this.#db = db;
    this.#defs = defs;
    this.#hw = hw;
  }

  #run(
    nodes: readonly string[],
    fn: (
      node: string,
      object: ObjectAttributes,
      state: HardwareState,
    ) => string | { message?: string } | undefined,
  ): Map<string, string> {
    const objects = this.#defs.read(nodes);
    const states = this.#hw.getMany(nodes);
    const errors: string[] = [];
    const messages = new Map<string, string>();
    for (const node of nodes) {
      const object = objects.get(node) ?? {};
      const state = states.get(node);
      if (!state) continue;
      if (!VM_MGTS.has(object.mgt ?? "")) {
        // The hint of the kvm and esx plugins together, as the real 2.19 answered for mkvm, chvm, rmvm.
        errors.push(nodeError(node, unableToIdentifyPlugin("nodehm.mgt;nodehm.power,mgt")));
        continue;
      }
      const outcome = fn(node, object, state);
      if (typeof outcome === "string") {
        errors.push(nodeError(node, outcome));
        continue;
      }
      this.#hw.save(node, state);
      if (outcome?.message) messages.set(node, outcome.message);
    }
    if (errors.length > 0) throw new CommandError(errors);
    return messages;
  }

  #writeVm(node: string, values: Record<string, string | null>): void {
    this.#db.upsert("vm", { node }, values);
  }

  #storage(object: ObjectAttributes, disks: readonly VirtualDisk[]): string | null {
    const base = object.vmstorage?.split(",")[0] || DEFAULT_STORAGE;
    return disks.length > 0 ? disks.map(() => base).join(",") : (object.vmstorage ?? null);
  }

  mkvm(nodes: readonly string[], options: MkvmOptions): void {
    this.#run(nodes, (node, object, state) => {
      if (!object.vmhost) return noSuitableVmHost(node);
      if (state.vm && !options.force) return `The VM ${node} already exists, use -f to remove it first`;
      const disks: VirtualDisk[] = [];
      if (options.disksize) {
        for (const [i, size] of options.disksize.split(",").entries()) {
          const gb = parseSize(size);
          if (gb === undefined) return `Invalid disk size ${size}`;
          disks.push({ dev: devName(i), sizeGb: gb });
        }
      }
      state.vm = { disks, ...(options.master ? { master: options.master } : {}) };
      state.power = "off";
      this.#writeVm(node, {
        cpus: options.cpus ?? object.vmcpus ?? "1",
        memory: options.memory ?? object.vmmemory ?? "4096",
        storage: this.#storage(object, disks),
        ...(options.master ? { master: options.master } : {}),
      });
      return undefined;
    });
  }

  chvm(nodes: readonly string[], options: ChvmOptions): void {
    this.#run(nodes, (node, object, state) => {
      const values: Record<string, string | null> = {};
      if (options.memory) values.memory = options.memory;
      if (options.cpus) values.cpus = options.cpus;
      if (options.adddisk || options.purgedisk || options.resize) {
        if (!state.vm) return `Unable to find VM ${node}, run mkvm first`;
        const disks = [...state.vm.disks];
        for (const size of options.adddisk?.split(",").filter((s) => s) ?? []) {
          const gb = parseSize(size);
          if (gb === undefined) return `Invalid disk size ${size}`;
          let index = 0;
          while (disks.some((d) => d.dev === devName(index))) index++;
          disks.push({ dev: devName(index), sizeGb: gb });
        }
        for (const dev of options.purgedisk?.split(",").filter((s) => s) ?? []) {
          const at = disks.findIndex((d) => d.dev === dev);
          if (at < 0) return `Unable to find disk ${dev} on ${node}`;
          disks.splice(at, 1);
        }
        if (options.resize) {
          for (const spec of options.resize.split(",")) {
            const [dev = "", size = ""] = spec.split("=");
            const at = disks.findIndex((d) => d.dev === dev);
            const gb = parseSize(size);
            if (at < 0 || gb === undefined) return `Unable to resize disk ${dev} on ${node}`;
            disks[at] = { dev, sizeGb: gb };
          }
        }
        state.vm = { ...state.vm, disks };
        values.storage = this.#storage(object, disks);
      }
      if (Object.keys(values).length > 0) this.#writeVm(node, values);
      return undefined;
    });
  }

  rmvm(nodes: readonly string[], options: { purge?: boolean; force?: boolean }): void {
    this.#run(nodes, (node, _object, state) => {
      if (!state.vm) return `Unable to find VM ${node}`;
      if (state.power === "on" && !options.force)
        return `Cannot rmvm active guest ${node} (use -f argument to force)`;
      delete state.vm;
      state.power = "off";
      if (options.purge) this.#writeVm(node, { storage: null });
      return undefined;
    });
  }

  clonevm(nodes: readonly string[], options: { tomaster?: string; frommaster?: string; detach?: boolean }) {
    return this.#run(nodes, (node, object, state) => {
      const sizeMb = Math.round((state.vm?.disks[0]?.sizeGb ?? 30) * 1024);
      const used = (sizeMb * 0.3136).toFixed(8).replace(/0+$/, "");
      if (options.tomaster) {
        if (!state.vm) return `Unable to find VM ${node}`;
        this.#db.upsert(
          "vmmaster",
          { name: options.tomaster },
          {
            os: object.os ?? null,
            arch: object.arch ?? null,
            profile: object.profile ?? null,
            storage: object.vmstorage ?? DEFAULT_STORAGE,
            originator: "root",
            virttype: object.mgt ?? "kvm",
            vintage: this.#hw.now().toISOString(),
          },
        );
        return {
          message: `Cloning of ${node}.hda.qcow2 complete (clone uses ${used} for a disk size of ${sizeMb}MB)`,
        };
      }
      const master = options.frommaster ?? "";
      if (!this.#db.first("vmmaster", { name: master }))
        return `Cannot find master ${master} in vmmaster table`;
      if (!object.vmhost) return noSuitableVmHost(node);
      state.vm = { disks: [{ dev: "vda", sizeGb: sizeMb / 1024 }], ...(options.detach ? {} : { master }) };
      state.power = "off";
      this.#writeVm(node, {
        master: options.detach ? null : master,
        storage: this.#storage(object, state.vm.disks),
      });
      return {
        message: `Cloning of ${master}.hda.qcow2 complete (clone uses ${used} for a disk size of ${sizeMb}MB)`,
      };
    });
  }

  rmigrate(nodes: readonly string[], target: string) {
    return this.#run(nodes, (node, object, state) => {
      if (!state.vm || state.power !== "on" || object.vmhost === target) return noSuitableVmHost(node);
      this.#writeVm(node, { host: target });
      return { message: `migrated to ${target}` };
    });
  }
}
