/**
 * Simulated hardware behind each node: what Confluent's ipmi plugin reaches through
 * `hardwaremanagement.manager` (plugins/hardwaremanagement/ipmi.py), and the node's side of a
 * deployment, which on a real cluster is the OS installer reporting to /self/updatestatus
 * (selfservice.py:464): `status: staged` moves deployment.pendingprofile to stagedprofile,
 * `status: complete` moves it to profile.
 *
 * Emulator rules (docs/confluent-emulator-coverage.md): a node answers power and boot requests
 * when it has a manager and its method is ipmi or redfish (3.15.6 defaults to ipmi); a node with
 * no manager times out as a real one does when its name reaches no BMC. A boot from the network
 * with a pending profile installs it in `bootSeconds` (staged at 60 %), unless the node is in
 * failNodes (deployment.state `failed` at 60 %) or hangNodes (never staged).
 */
import { CONFLUENT_ERROR_CATEGORIES, confluentMessages } from "../../contract/confluent/messages";
import type { ConfluentConfig } from "./config-store";
import { ConfluentApiError } from "./errors";
import { PythonError } from "./python-format";

export interface HardwareState {
  power: "on" | "off";
  nextdevice: string;
  bootmode: string;
  persistent: boolean;
  /** A deployment the node is running: profile, start (ms) and what will happen. */
  deploying?: { profile: string; started: number; outcome: "complete" | "fail" | "hang"; step: number };
}

export interface SimulationOptions {
  readonly bootSeconds: number;
  readonly failNodes: ReadonlySet<string>;
  readonly hangNodes: ReadonlySet<string>;
  /** BMC addresses that never answer (504 timeout). */
  readonly unreachableBmcs?: ReadonlySet<string>;
  /** BMC addresses with their one account; a node logging in with other credentials gets 502. */
  readonly bmcAccounts?: ReadonlyMap<string, { readonly user: string; readonly password: string }>;
  readonly now?: () => number;
}

const SUPPORTED_METHODS = new Set(["ipmi", "redfish"]);

/** A per-node failure: HTTP error for one node, an entry with errorcode inside a noderange. */
export class NodeHardwareError extends Error {
  constructor(
    readonly node: string,
    readonly kind: "unreachable" | "badCredentials",
    readonly nodeMessage: string,
  ) {
    super(nodeMessage);
  }

  toApiError(): ConfluentApiError {
    return new ConfluentApiError(this.kind, this.kind === "unreachable" ? this.nodeMessage : "");
  }

  get errorcode(): number {
    return CONFLUENT_ERROR_CATEGORIES[this.kind].status;
  }
}

export class HardwareSimulation {
  readonly #config: ConfluentConfig;
  readonly #options: SimulationOptions;

  constructor(config: ConfluentConfig, options: SimulationOptions) {
    this.#config = config;
    this.#options = options;
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  state(node: string): HardwareState {
    return (
      this.#config.db.hardware<HardwareState>(node) ?? {
        power: "off",
        nextdevice: "default",
        bootmode: "unspecified",
        persistent: false,
      }
    );
  }

  #put(node: string, state: HardwareState): void {
    this.#config.db.putHardware(node, state);
  }

  /** Whether the node's BMC answers; throws Confluent's per-node failure otherwise. */
  reach(node: string): void {
    const attrs = this.#config.resolveNode(node) ?? {};
    const method = attrs["hardwaremanagement.method"];
    const methodValue = method?.kind === "value" && method.value ? String(method.value) : "ipmi";
    if (!SUPPORTED_METHODS.has(methodValue)) {
      // core.py BadPlugin: an unhandled error naming the node.
      throw new PythonError(`${node}: ${methodValue} is not a supported plugin`);
    }
    const manager = attrs["hardwaremanagement.manager"];
    const address = manager?.kind === "value" && manager.value ? String(manager.value) : "";
    if (!address || this.#options.unreachableBmcs?.has(address)) {
      throw new NodeHardwareError(node, "unreachable", confluentMessages.timeout);
    }
    const account = this.#options.bmcAccounts?.get(address);
    if (account) {
      // The ipmi plugin logs in with the node's secrets, USERID / PASSW0RD when unset (ipmi.py).
      const user = this.#config.secretOf(node, "secret.hardwaremanagementuser") || "USERID";
      const password = this.#config.secretOf(node, "secret.hardwaremanagementpassword") || "PASSW0RD";
      if (user !== account.user || password !== account.password) {
        throw new NodeHardwareError(node, "badCredentials", confluentMessages.badCredentials);
      }
    }
  }

  power(node: string): string {
    this.reach(node);
    return this.state(node).power;
  }

  /** ipmi.py power handling, as recorded: returns the answer's state and, for boot, oldstate. */
  setPower(node: string, wanted: string): { state: string; oldstate?: string } {
    this.reach(node);
    const s = this.state(node);
    const old = s.power;
    let answer: { state: string; oldstate?: string };
    switch (wanted) {
      case "on":
        if (old === "off") this.#powerOn(node, s);
        answer = { state: "on" };
        break;
      case "off":
      case "shutdown":
        s.power = "off";
        delete s.deploying;
        answer = { state: "off" };
        break;
      case "reset":
        this.#powerOn(node, s);
        answer = { state: "reset" };
        break;
      case "boot":
        this.#powerOn(node, s);
        answer = old === "on" ? { oldstate: "on", state: "reset" } : { oldstate: "off", state: "on" };
        break;
      default:
        answer = { state: wanted };
    }
    this.#put(node, s);
    return answer;
  }

  setNextDevice(node: string, device: string, persistent: boolean): void {
    this.reach(node);
    const s = this.state(node);
    s.nextdevice = device;
    s.persistent = persistent;
    this.#put(node, s);
  }

  nextDevice(node: string): { nextdevice: string; bootmode: string; persistent: boolean } {
    this.reach(node);
    const s = this.state(node);
    return { nextdevice: s.nextdevice, bootmode: "unspecified", persistent: s.persistent };
  }

  /** A start from power-off or a reset: a network boot with a pending profile starts installing. */
  #powerOn(node: string, s: HardwareState): void {
    s.power = "on";
    const device = s.nextdevice;
    if (!s.persistent) s.nextdevice = "default";
    if (device !== "network" && device !== "http") return;
    const attrs = this.#config.resolveNode(node) ?? {};
    const pending = attrs["deployment.pendingprofile"];
    const profile = pending?.kind === "value" && pending.value ? String(pending.value) : "";
    if (!profile) return;
    const outcome = this.#options.failNodes.has(node)
      ? "fail"
      : this.#options.hangNodes.has(node)
        ? "hang"
        : "complete";
    s.deploying = { profile, started: this.#now(), outcome, step: 0 };
    // The installer fetches its API key first, which disarms a `once` arming (credserver.py).
    const armed = attrs["deployment.apiarmed"];
    if (armed?.kind === "value" && armed.value === "once") {
      this.#config.setNodeAttributes({ [node]: { "deployment.apiarmed": "" } }, false);
    }
  }

  /** Moves every running deployment to where its clock says it is. */
  advance(): void {
    const total = this.#options.bootSeconds * 1000;
    for (const node of this.#config.db.nodeNames()) {
      const s = this.#config.db.hardware<HardwareState>(node);
      const d = s?.deploying;
      if (!s || !d) continue;
      const elapsed = this.#now() - d.started;
      if (d.outcome === "hang") continue;
      if (d.step < 1 && elapsed >= total * 0.6) {
        d.step = 1;
        if (d.outcome === "fail") {
          this.#config.setNodeAttributes(
            {
              [node]: {
                "deployment.state": "failed",
                "deployment.state_detail": "installation failed (confluent-emulator --fail-nodes)",
              },
            },
            false,
          );
          delete s.deploying;
        } else {
          this.#config.setNodeAttributes(
            { [node]: { "deployment.pendingprofile": "", "deployment.stagedprofile": d.profile } },
            false,
          );
        }
      }
      if (s.deploying && d.step < 2 && elapsed >= total) {
        d.step = 2;
        this.#config.setNodeAttributes(
          { [node]: { "deployment.stagedprofile": "", "deployment.profile": d.profile } },
          false,
        );
        delete s.deploying;
      }
      this.#put(node, s);
    }
  }
}
