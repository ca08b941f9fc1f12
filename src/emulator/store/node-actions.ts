/**
 * Hardware commands on nodes (rpower, rsetboot, rbeacon, reventlog, rvitals, rinv, renergy,
 * rspconfig, nodeset, nodestat, rscan) against the simulated hardware. Each node succeeds or
 * fails on its own; the work done for the good nodes stays done, and any node error makes the
 * whole answer a 403 with every error (xcat-behavior.md §3.2: "403 hides partial success").
 */
import { nodeError, UNSUPPORTED_COMMAND, unableToIdentifyPlugin } from "../../contract/messages";
import { type BootMethod, type BootSimulation, methodOf } from "./boot-sequence";
import type { Definitions } from "./definitions";
import { CommandError } from "./errors";
import type { Hardware, HardwareState } from "./hardware";
import type { ObjectAttributes } from "./object-reader";

/** `{node: {key: value}}` results of an action. */
export type NodeResults = Map<string, Record<string, string | string[]>>;

/** Which management types (nodehm.mgt) handle which commands. */
const SUPPORT: Record<string, readonly string[]> = {
  rpower: ["ipmi", "openbmc", "redfish", "kvm", "esx", "hmc", "ivm", "fsp", "bpa", "blade", "zvm"],
  rsetboot: ["ipmi", "openbmc", "redfish", "kvm"],
  rbeacon: ["ipmi", "openbmc", "redfish", "blade"],
  reventlog: ["ipmi", "openbmc", "redfish", "blade", "fsp"],
  rvitals: ["ipmi", "openbmc", "redfish", "blade", "fsp"],
  rinv: ["ipmi", "openbmc", "redfish", "blade", "fsp", "kvm", "esx"],
  renergy: ["ipmi", "openbmc", "fsp"],
  rspconfig: ["ipmi", "openbmc", "redfish", "blade", "fsp", "hmc"],
  rscan: ["hmc", "ivm", "fsp", "blade", "kvm", "esx", "ipmi", "openbmc"],
};

/**
 * What xcatd lists for a node no plugin takes: the `handled_commands` hint of every plugin that
 * registers the command, as the real 2.19 answered for a node without mgt (its plugins: ipmi,
 * openbmc, blade, fsp, kvm, esx, pdu, switch ...).
 */
const PLUGIN_TABLES: Record<string, string> = {
  rpower: "nodehm.power,mgt;nodehm.mgt;nodehm.mgt=openbmc;pduoutlet.pdu=.*",
  rsetboot: "nodehm.power,mgt;nodehm.mgt;nodehm.mgt=openbmc",
  rbeacon: "nodehm.mgt=blade|fsp;nodehm.mgt=openbmc",
  reventlog: "nodehm.mgt=blade|fsp;nodehm.mgt=openbmc",
  rvitals: "nodehm.mgt=blade|fsp;nodehm.mgt=openbmc",
  rinv: "nodehm.mgt;nodehm.power,mgt;nodehm.mgt=openbmc",
  renergy: "nodehm.mgt=blade|fsp|ipmi",
  rspconfig: "nodehm.mgt=blade|fsp|ipmi;switches.switchtype;nodehm.mgt=openbmc",
  rscan: "nodehm.mgt;nodehm.mgt=ipmi",
};

/** Statuses of a node that is up but not (yet) running its OS's sshd. */
const BOOTING_STATUSES = new Set(["installing", "netbooting", "booting", "failed"]);

const POWER_ACTIONS = new Set(["on", "off", "softoff", "reset", "boot", "cycle", "stat", "state", "status"]);
const NEXTBOOT: Record<string, string> = {
  net: "Network",
  network: "Network",
  hd: "Hard Drive",
  cd: "CD/DVD",
  floppy: "Floppy",
  setup: "BIOS Setup",
  def: "boot override inactive",
  default: "boot override inactive",
};
const SP_LABELS: Record<string, string> = {
  ip: "BMC IP",
  netmask: "BMC Netmask",
  gateway: "BMC Gateway",
  backupgateway: "BMC Backup Gateway",
  vlan: "BMC VLAN ID",
  hostname: "BMC Hostname",
  ipsrc: "BMC IP Source",
  community: "SP SNMP Community",
  snmpdest: "SP SNMP Destination 1",
  alert: "SP Alerting",
  garp: "Gratuitous ARP",
  userid: "BMC Userid",
  username: "BMC Username",
};
const VITALS = ["temp", "voltage", "wattage", "fanspeed", "power", "leds"] as const;
const INVENTORY = [
  "model",
  "serial",
  "vpd",
  "uuid",
  "mprom",
  "firmware",
  "bios",
  "mac",
  "cpu",
  "dimm",
  "pci",
] as const;

/** Splits keyword lists of rvitals/rinv/renergy, which xCAT passes on with `;` or `,`. */
export function keywords(list: string | undefined): string[] {
  return (list ?? "all")
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export class NodeActions {
  readonly #defs: Definitions;
  readonly #hw: Hardware;
  readonly #boots: BootSimulation | undefined;

  constructor(defs: Definitions, hw: Hardware, boots?: BootSimulation) {
    this.#defs = defs;
    this.#hw = hw;
    this.#boots = boots;
  }

  /**
   * Runs `fn` for every node whose management type handles `command`; nodes that cannot, and
   * nodes for which `fn` returns an error string, are reported as node errors at the end.
   */
  #run(
    command: string,
    nodes: readonly string[],
    fn: (
      node: string,
      object: ObjectAttributes,
      state: HardwareState,
    ) => Record<string, string | string[]> | string,
    options: { save?: boolean } = {},
  ): NodeResults {
    const objects = this.#defs.read(nodes);
    const states = this.#hw.getMany(nodes);
    const results: NodeResults = new Map();
    const errors: string[] = [];
    for (const node of nodes) {
      const object = objects.get(node) ?? {};
      const mgt = object.mgt ?? "";
      const supported = SUPPORT[command];
      if (supported && !supported.includes(mgt)) {
        errors.push(nodeError(node, unableToIdentifyPlugin(PLUGIN_TABLES[command] ?? "nodehm.mgt")));
        continue;
      }
      const state = states.get(node);
      if (!state) continue;
      const outcome = fn(node, object, state);
      if (typeof outcome === "string") {
        errors.push(nodeError(node, outcome));
        continue;
      }
      if (options.save) this.#hw.save(node, state);
      results.set(node, outcome);
    }
    if (errors.length > 0) throw new CommandError(errors);
    return results;
  }

  /**
   * rpower. on/boot (and reset of a running node) start a boot: a network boot when the boot
   * device is the network (rsetboot net, used once as an IPMI boot override is) and nodeset
   * prepared an install or netboot; otherwise the node boots from its disk. off/softoff end it.
   */
  power(nodes: readonly string[], action: string): NodeResults {
    const boots: { node: string; method: BootMethod }[] = [];
    const stopped: string[] = [];
    try {
      return this.#run(
        "rpower",
        nodes,
        (node, object, state) => {
          // ipmi.pm's preprocess refuses an unknown action by name (ipmi.pm:8338-8348 at 2.19,
          // the same at 2.16.5); answered so by a real 2.19 (docs/xcat-behavior-found.md 2).
          if (!POWER_ACTIONS.has(action) && object.mgt === "ipmi")
            return `Error: ${UNSUPPORTED_COMMAND}: rpower ${action} when using mgt=ipmi.`;
          const outcome = this.#power(state, action);
          if (typeof outcome === "string") return outcome;
          if (outcome.booting) {
            const network = state.nextboot === "Network" ? methodOf(object.currstate) : undefined;
            if (state.nextboot === "Network") state.nextboot = NEXTBOOT.def as string;
            boots.push({ node, method: network ?? "disk" });
          } else if (outcome.stopped) {
            stopped.push(node);
          }
          return { power: state.power };
        },
        { save: !["stat", "state", "status"].includes(action) },
      );
    } finally {
      // The good nodes of a range with errors are powered all the same (§3.2).
      this.#boots?.start(boots);
      this.#boots?.stop(stopped, "powering-off");
    }
  }

  /** Applies one rpower action to a node's hardware state; says whether a boot starts or ends. */
  #power(state: HardwareState, action: string): string | { booting: boolean; stopped: boolean } {
    if (!POWER_ACTIONS.has(action)) return UNSUPPORTED_COMMAND;
    const was = state.power;
    switch (action) {
      case "on":
        state.power = "on";
        break;
      case "off":
      case "softoff":
        state.power = "off";
        break;
      case "reset":
      case "boot":
      case "cycle":
        state.power = "on";
        break;
    }
    if (action === "reset" || action === "cycle" || (action === "boot" && was === "on")) {
      this.#hw.log(state, "System Restart #0x1d, System Restart");
    }
    if (was !== state.power) {
      this.#hw.log(
        state,
        state.power === "on"
          ? "System ACPI Power State #0x1c, S0/G0: working"
          : "System ACPI Power State #0x1c, S4/S5: soft-off",
      );
    }
    // ipmi.pm:2958-2966: on and boot power on; reset powers on a node that was on.
    const booting =
      action === "on" || action === "boot" || ((action === "reset" || action === "cycle") && was === "on");
    return {
      booting: booting && (was === "off" || action !== "on"),
      stopped: action === "off" || action === "softoff",
    };
  }

  nextboot(nodes: readonly string[], order?: string): NodeResults {
    return this.#run(
      "rsetboot",
      nodes,
      (_n, _o, state) => {
        if (order === undefined || order === "stat") return { nextboot: state.nextboot };
        const display = NEXTBOOT[order];
        if (!display) return UNSUPPORTED_COMMAND;
        state.nextboot = display;
        return { nextboot: display };
      },
      { save: order !== undefined && order !== "stat" },
    );
  }

  beacon(nodes: readonly string[], action?: string): NodeResults {
    return this.#run(
      "rbeacon",
      nodes,
      (_n, _o, state) => {
        if (action === undefined || action === "stat") return { beacon: [state.beacon] };
        if (action !== "on" && action !== "off" && action !== "blink") return UNSUPPORTED_COMMAND;
        state.beacon = action;
        return { beacon: [action] };
      },
      { save: action !== undefined && action !== "stat" },
    );
  }

  eventlog(nodes: readonly string[], clear = false): NodeResults {
    return this.#run(
      "reventlog",
      nodes,
      (_n, _o, state) => {
        if (clear) {
          state.eventlog = [];
          this.#hw.log(state, "Event Logging Disabled SEL #0x72, Log area reset/cleared");
        }
        return { eventlog: [...state.eventlog] };
      },
      { save: clear },
    );
  }

  vitals(nodes: readonly string[], list?: string): NodeResults {
    const items = keywords(list);
    return this.#run("rvitals", nodes, (node, _o, state) => {
      const d = this.#hw.derived(node);
      const on = state.power === "on";
      const out: Record<string, string> = {};
      for (const item of items) {
        const wanted = item === "all" ? VITALS : [item];
        for (const v of wanted) {
          switch (v) {
            case "temp": {
              const ambient = d.int("ambient", 19, 26);
              out["Ambient Temp"] = `${ambient} C (${Math.round((ambient * 9) / 5 + 32)} F)`;
              for (const cpu of [1, 2]) {
                const t = on ? d.int(`cpu${cpu}`, 38, 62) : ambient;
                out[`CPU ${cpu} Temp`] = `${t} C (${Math.round((t * 9) / 5 + 32)} F)`;
              }
              break;
            }
            case "voltage":
              out["12V"] = `${(12 + d.int("v12", -8, 8) / 100).toFixed(2)} V`;
              out["5V"] = `${(5 + d.int("v5", -5, 5) / 100).toFixed(2)} V`;
              out["3.3V"] = `${(3.3 + d.int("v33", -4, 4) / 100).toFixed(2)} V`;
              break;
            case "wattage":
              out["AC Avg Power"] = `${on ? d.int("watts", 150, 420) : 0} Watts`;
              break;
            case "fanspeed":
              for (const fan of [1, 2, 3, 4])
                out[`Fan ${fan}A Tach`] = `${on ? d.int(`fan${fan}`, 45, 90) * 100 : 0} RPM`;
              break;
            case "power":
              out["Power Status"] = state.power;
              break;
            case "leds":
              out["LED Front Panel"] = state.beacon === "off" ? "off" : state.beacon;
              out["LED Fault"] = "off";
              break;
            default:
              return `${UNSUPPORTED_COMMAND}: rvitals ${item}`;
          }
        }
      }
      return out;
    });
  }

  inventory(nodes: readonly string[], list?: string): NodeResults {
    const items = keywords(list);
    return this.#run("rinv", nodes, (node, object, state) => {
      const d = this.#hw.derived(node);
      const out: Record<string, string> = {};
      const vm = object.mgt === "kvm" || object.mgt === "esx";
      for (const item of items) {
        const wanted = item === "all" ? INVENTORY : [item];
        for (const v of wanted) {
          switch (v) {
            case "model":
            case "vpd":
              out["System Description"] = vm
                ? "KVM Virtual Machine"
                : d.pick("model", ["ThinkSystem SR650", "ThinkSystem SR630", "System x3650 M5"]);
              out["System Model/MTM"] =
                object.mtm ?? (vm ? "KVM" : `${d.pick("mtm", ["7X06", "7X02", "8871"])}CTO1WW`);
              if (v === "model") break;
              out["System Serial Number"] = object.serial ?? d.hex("serial", 8).toUpperCase();
              break;
            case "serial":
              out["System Serial Number"] = object.serial ?? d.hex("serial", 8).toUpperCase();
              break;
            case "uuid":
              out["UUID/GUID"] =
                `${d.hex("uuid", 8)}-${d.hex("uuid2", 4)}-4${d.hex("uuid3", 3)}-a${d.hex("uuid4", 3)}-${d.hex("uuid5", 12)}`;
              break;
            case "mprom":
            case "firmware":
              out["BMC Firmware"] = vm ? "n/a" : `${d.int("fwmaj", 1, 3)}.${d.int("fwmin", 10, 99)}`;
              break;
            case "bios":
              out["BIOS Version"] = vm
                ? "SeaBIOS 1.16"
                : `${d.pick("bios", ["TEE1", "IVE1", "PSE1"])}${d.int("biosv", 10, 99)}O`;
              break;
            case "mac":
              out["MAC Address 1"] = (object.mac?.split("|")[0] ?? macFor(d)).toLowerCase();
              break;
            case "cpu":
              for (const cpu of [1, 2])
                out[`CPU ${cpu} Product Name`] = vm
                  ? "QEMU Virtual CPU"
                  : d.pick("cpu", ["Intel Xeon Gold 6248", "Intel Xeon Silver 4214", "AMD EPYC 7452"]);
              if (vm && object.vmcpus) out.CPUs = object.vmcpus;
              break;
            case "dimm": {
              if (vm) {
                out.Memory = `${object.vmmemory ?? "4096"} MB`;
                for (const disk of state.vm?.disks ?? []) out[`Disk ${disk.dev}`] = `${disk.sizeGb} GB`;
                break;
              }
              const count = d.int("dimms", 2, 8);
              for (let i = 1; i <= count; i++) out[`DIMM ${i}`] = "16384MB PC4-23400 (2933 MT/s) DDR4 RDIMM";
              break;
            }
            case "pci":
              out["PCI 1"] = "Ethernet controller: Intel Corporation Ethernet Controller X710";
              out["PCI 2"] = "RAID bus controller: Broadcom / LSI MegaRAID SAS-3 3108";
              break;
            default:
              return `${UNSUPPORTED_COMMAND}: rinv ${item}`;
          }
        }
      }
      return out;
    });
  }

  energy(nodes: readonly string[], list?: string): NodeResults {
    const items = keywords(list);
    return this.#run("renergy", nodes, (node, _o, state) => {
      const d = this.#hw.derived(node);
      const on = state.power === "on";
      const all: Record<string, string> = {
        cappingmaxmin: `${d.int("capmax", 50, 60) * 10} W - ${d.int("capmin", 15, 25) * 10} W`,
        cappingstatus: state.energy.cappingstatus,
        cappingvalue: state.energy.cappingvalue,
        averageAC: `${on ? d.int("ac", 150, 420) : 0} W`,
        averageDC: `${on ? d.int("dc", 130, 380) : 0} W`,
        ambienttemp: `${d.int("ambient", 19, 26)} C`,
        exhausttemp: `${d.int("ambient", 19, 26) + (on ? 12 : 0)} C`,
      };
      const out: Record<string, string> = {};
      for (const item of items) {
        if (item === "all") Object.assign(out, all);
        else if (all[item] !== undefined) out[item] = all[item];
        else return `${UNSUPPORTED_COMMAND}: renergy ${item}`;
      }
      return out;
    });
  }

  setEnergy(nodes: readonly string[], key: string, value: string): void {
    this.#run(
      "renergy",
      nodes,
      (_n, _o, state) => {
        if (key === "cappingstatus") {
          const v = value.toLowerCase();
          if (!["on", "off", "enable", "disable"].includes(v))
            return `Invalid value ${value} for cappingstatus`;
          state.energy.cappingstatus = v === "on" || v === "enable" ? "on" : "off";
        } else if (key === "cappingvalue" || key === "cappingwatt") {
          if (!/^\d+$/.test(value)) return `Invalid value ${value} for ${key}`;
          state.energy.cappingvalue = `${value} W`;
        } else {
          return `${UNSUPPORTED_COMMAND}: renergy ${key}`;
        }
        return {};
      },
      { save: true },
    );
  }

  serviceProcessor(nodes: readonly string[], list: string): NodeResults {
    const items = keywords(list);
    return this.#run("rspconfig", nodes, (node, object, state) => {
      const out: Record<string, string> = {};
      for (const item of items) {
        const label = SP_LABELS[item];
        if (!label) return `${UNSUPPORTED_COMMAND}: rspconfig ${item}`;
        out[label] = state.sp[item] ?? this.#spDefault(node, object, item);
      }
      return out;
    });
  }

  setServiceProcessor(nodes: readonly string[], settings: ReadonlyMap<string, string>): void {
    this.#run(
      "rspconfig",
      nodes,
      (_n, _o, state) => {
        for (const [item, value] of settings) {
          if (!SP_LABELS[item]) return `${UNSUPPORTED_COMMAND}: rspconfig ${item}`;
          state.sp[item] = value;
        }
        return {};
      },
      { save: true },
    );
  }

  #spDefault(node: string, object: ObjectAttributes, item: string): string {
    const d = this.#hw.derived(node);
    switch (item) {
      case "ip":
        return object.bmc ?? `10.1.${d.int("bmc3", 0, 254)}.${d.int("bmc4", 1, 254)}`;
      case "netmask":
        return "255.255.0.0";
      case "gateway":
      case "backupgateway":
        return "10.1.0.254";
      case "vlan":
        return object.bmcvlantag ?? "Disabled";
      case "hostname":
        return `${node}-bmc`;
      case "ipsrc":
        return "Static Address";
      case "community":
        return "public";
      case "snmpdest":
        return "0.0.0.0";
      case "alert":
        return "disabled";
      case "garp":
        return "0";
      default:
        return object.bmcusername ?? "USERID";
    }
  }

  /**
   * The states of nodes for nodestat: power, boot state and the progress of a boot (§9.7: values
   * may end in a space). A node in its installer, initrd, early boot or failed install pings
   * without sshd; otherwise a node that is on answers on port 22 (nodestat.pm:35).
   */
  nodestat(nodes: readonly string[]): NodeResults {
    const objects = this.#defs.read(nodes);
    const states = this.#hw.getMany(nodes);
    const results: NodeResults = new Map();
    for (const node of nodes) {
      const state = states.get(node);
      const object = objects.get(node);
      const currstate = object?.currstate ?? "";
      const status = object?.status ?? "";
      let value = "sshd";
      if (state?.power === "off") value = "noping";
      else if (BOOTING_STATUSES.has(status) || currstate === "offline" || currstate === "shell")
        value = "ping ";
      results.set(node, { nodestat: value });
    }
    return results;
  }

  /** The subnodes (rscan) of nodes: VMs hosted on them, LPARs or blades under them. */
  subnodes(nodes: readonly string[]): Map<string, ObjectAttributes> {
    this.#run("rscan", nodes, () => ({}));
    const parents = new Set(nodes);
    const all = this.#defs.names("node");
    const objects = this.#defs.read(all);
    const out = new Map<string, ObjectAttributes>();
    for (const [name, object] of objects) {
      const parent = object.vmhost ?? object.parent ?? object.mpa ?? object.hcp;
      if (!parent || !parents.has(parent)) continue;
      const view: ObjectAttributes = { objtype: "node" };
      for (const key of [
        "groups",
        "hcp",
        "id",
        "mgt",
        "mtm",
        "nodetype",
        "parent",
        "serial",
        "vmhost",
        "mpa",
      ]) {
        const value = object[key];
        if (value) view[key] = value;
      }
      out.set(name, view);
    }
    return out;
  }
}

function macFor(d: { hex(key: string, length: number): string }): string {
  const hex = `42${d.hex("mac", 10)}`;
  return hex.match(/../g)?.join(":") ?? hex;
}
