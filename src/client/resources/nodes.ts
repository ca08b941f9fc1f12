/**
 * client.nodes: node definitions and every node sub-resource of xcatws (hosts, DNS, DHCP, power,
 * energy, service processor, boot, vitals, inventory, event log, beacon, updatenode, xdsh, xdcp,
 * virtual machines, nodels). Method names are the route ids of src/contract/routes.ts.
 */
import { isPerNodeTemplate } from "../../contract/per-node-values";
import { Coalescer } from "../coalescer";
import type { Engine } from "../engine";
import { attributeListSegment, keywordSegment, noderangeSegment } from "../names";
import { bootstateOf, cleanStatus } from "../quirks";
import { readBatchingOf } from "../read-batcher-engine";
import { isPlainName } from "../read-batcher-writes";
import type { AttributeInput, CallOptions } from "../types";
import { updateMerged } from "../write-merging";
import { GroupsApi } from "./groups";
import { type CreateOptions, type DeleteOptions, NamedObjects } from "./objects";
import {
  attributeMaps,
  lines,
  type NodeOutput,
  type NodeResults,
  nodeOutput,
  nodeResults,
  type PerNode,
  perNodeLines,
  perNodeValue,
} from "./results";

/** A noderange: `n01`, `n[01-10]`, `rack1,n05`, a group name, or a list of names. */
export type Noderange = string | readonly string[];

/** rpower actions; xcatws passes any word through, these are the common ones. */
export type PowerAction =
  | "on"
  | "off"
  | "softoff"
  | "reset"
  | "boot"
  | "cycle"
  | "onstandby"
  | "wake"
  | "suspend"
  | (string & {});

/** What `setBootstate` asks nodeset for. */
export type BootstateTarget =
  | { readonly osimage: string }
  | { readonly state: "offline" | "shell" | "boot" | "iscsiboot" | (string & {}) }
  | { readonly action: string };

/** Input of `nodeshell` (xdsh). */
export interface NodeshellInput {
  /** Commands; several are run one after the other (xcatws joins them with ';'). */
  readonly command: string | readonly string[];
  /** Environment variables for the commands. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  /** Raw xdsh arguments. */
  readonly raw?: string | readonly string[] | undefined;
}

/** Input of `changeVm` (chvm). */
export interface ChangeVmInput {
  readonly memorySizeMb?: number | undefined;
  readonly cpuCount?: number | undefined;
  /** Disks to add, e.g. ["20G"]. */
  readonly addDisk?: readonly string[] | undefined;
  /** Disks to remove, e.g. ["vdb"]. */
  readonly purgeDisk?: readonly string[] | undefined;
  /** Disk to resize, e.g. "vda:30G". */
  readonly resizeDisk?: string | undefined;
}

/** Input of `createVm` (mkvm). */
export interface CreateVmInput {
  readonly cpuCount?: number | undefined;
  readonly memorySizeMb?: number | undefined;
  /** Disk size, e.g. "20G". */
  readonly diskSize?: string | undefined;
  /** Clone master to create from. */
  readonly master?: string | undefined;
  readonly force?: boolean | undefined;
}

/** Input of `cloneVm` (clonevm): make a master from the node, or the node from a master. */
export type CloneVmInput = (
  | { readonly toMaster: string; readonly fromMaster?: undefined }
  | { readonly fromMaster: string; readonly toMaster?: undefined }
) & { readonly detach?: boolean | undefined; readonly force?: boolean | undefined };

const yes = (flag: boolean | undefined) => (flag ? "yes" : undefined);

function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

const asList = (value: string | readonly string[]) => (typeof value === "string" ? [value] : [...value]);

/**
 * Nodes and their sub-resources.
 *
 * @example
 * ```ts
 * await client.nodes.create("n01", { groups: "compute,all", mgt: "ipmi" });
 * await client.nodes.setPower("n01", "on");
 * const power = await client.nodes.getPower("n01"); // { n01: "on" }
 * ```
 */
/** The routes of the per-node name services (hosts, DNS, DHCP). */
type NameServiceRoute =
  | "nodes.makeHosts"
  | "nodes.makeDns"
  | "nodes.removeDns"
  | "nodes.makeDhcp"
  | "nodes.removeDhcp";

export class NodesApi extends NamedObjects {
  /** Merges name-service commands per command (see {@link NodesApi.#nameService}); created on first use. */
  #nameServices: Coalescer<string, undefined> | undefined;
  /** Reads the raw definitions of groups, for `sharesAdditions`. */
  readonly #groups: GroupsApi;

  constructor(engine: Engine) {
    super(engine, { prefix: "nodes", param: "noderange", what: "node name" });
    this.#groups = new GroupsApi(engine);
  }

  /**
   * Whether nodes created with `wire` inherit the same values: yes unless one of their groups
   * holds a per-node template (see per-node-values.ts), which xCAT expands by each node's name.
   * Groups are read raw (lsdef -t group keeps templates as they are), all of them in one request;
   * a group no row defines gives nothing. Any template counts, even for an attribute the first
   * node did not show: one that expands to nothing for some node hides the attribute for that
   * node alone (Table.pm transRegexAttrs returns undef, 2678 and 2700).
   */
  protected override async sharesAdditions(wire: Readonly<Record<string, string>>): Promise<boolean> {
    const groups = (wire.groups ?? "").split(",").filter((group) => group !== "");
    if (groups.length === 0) return true;
    const definitions = await this.#groups.getMany(groups);
    return ![...definitions.values()].some((attributes) =>
      Object.entries(attributes).some(
        ([attribute, value]) => attribute !== "members" && isPerNodeTemplate(value),
      ),
    );
  }

  /**
   * One name-service command (makehosts, makedns [-d], makedhcp [-d]) for `noderange`. With
   * batching on, calls for single plain node names merge per command into one noderange request,
   * as node deletes and equal updates do (write-merging.ts): creating 100 nodes costs one makehosts,
   * not 100. A merged request that fails is sent again node by node, so each caller gets its own
   * node's answer (the commands are idempotent).
   */
  async #nameService(route: NameServiceRoute, noderange: Noderange, options: CallOptions | undefined) {
    const name =
      typeof noderange === "string" ? noderange : noderange.length === 1 ? noderange[0] : undefined;
    const plain = !(options?.signal || options?.debug || options?.pretty || options?.xcoll);
    const batching = readBatchingOf(this.engine);
    if (plain && name !== undefined && isPlainName(name) && batching !== undefined) {
      this.#nameServices ??= new Coalescer<string, undefined>({
        hold: batching.hold,
        run: (lane, batch) =>
          updateMerged(batch, async (some) => {
            await this.engine.call({ route: lane, params: this.#nr(some), kind: "write" });
          }),
      });
      await this.#nameServices.submit(route, name);
      return;
    }
    await this.engine.call({ route, params: this.#nr(noderange), kind: "write", options });
  }

  #nr(noderange: Noderange): { noderange: string } {
    return { noderange: noderangeSegment(noderange) };
  }

  /**
   * Defines a node (mkdef). `groups` is required by xCAT. Throws XcatAlreadyExistsError when the
   * node exists. When the answer is lost, the node is read before the request is sent again.
   *
   * @example
   * ```ts
   * await client.nodes.create("n01", { groups: ["compute", "all"], mgt: "ipmi", bmc: "10.0.0.101" });
   * ```
   */
  create(name: string, attrs: AttributeInput, options?: CreateOptions): Promise<void> {
    return this.createObject(name, attrs, options);
  }

  /**
   * Removes node definitions (rmdef). Note xCAT removes the nodes that exist even when the
   * answer is a not-found for another name of the range.
   *
   * @example
   * ```ts
   * await client.nodes.delete("n01", { ignoreMissing: true });
   * ```
   */
  delete(noderange: Noderange, options?: DeleteOptions): Promise<void> {
    return this.deleteObjects(noderange, options);
  }

  /**
   * Writes the nodes' entries to /etc/hosts (makehosts). Repeating it is harmless, so it is retried.
   *
   * @example
   * ```ts
   * await client.nodes.makeHosts("compute");
   * ```
   */
  async makeHosts(noderange: Noderange, options?: CallOptions): Promise<void> {
    await this.#nameService("nodes.makeHosts", noderange, options);
  }

  /**
   * Adds the nodes to DNS (makedns); their hosts entries must exist.
   *
   * @example
   * ```ts
   * await client.nodes.makeDns("n01");
   * ```
   */
  async makeDns(noderange: Noderange, options?: CallOptions): Promise<void> {
    await this.#nameService("nodes.makeDns", noderange, options);
  }

  /**
   * Removes the nodes from DNS (makedns -d).
   *
   * @example
   * ```ts
   * await client.nodes.removeDns("n01");
   * ```
   */
  async removeDns(noderange: Noderange, options?: CallOptions): Promise<void> {
    await this.#nameService("nodes.removeDns", noderange, options);
  }

  /**
   * Adds the nodes to DHCP (makedhcp).
   *
   * @example
   * ```ts
   * await client.nodes.makeDhcp("n01");
   * ```
   */
  async makeDhcp(noderange: Noderange, options?: CallOptions): Promise<void> {
    await this.#nameService("nodes.makeDhcp", noderange, options);
  }

  /**
   * Removes the nodes from DHCP (makedhcp -d).
   *
   * @example
   * ```ts
   * await client.nodes.removeDhcp("n01");
   * ```
   */
  async removeDhcp(noderange: Noderange, options?: CallOptions): Promise<void> {
    await this.#nameService("nodes.removeDhcp", noderange, options);
  }

  /**
   * Node status (nodestat) per node, e.g. `{ n01: "sshd" }`, without nodestat's trailing spaces.
   *
   * @example
   * ```ts
   * const status = await client.nodes.nodestat("compute");
   * ```
   */
  async nodestat(noderange: Noderange, options?: CallOptions): Promise<PerNode<string>> {
    const answer = await this.engine.call({ route: "nodes.nodestat", params: this.#nr(noderange), options });
    const values = perNodeValue(answer, ["nodestat"]);
    return Object.fromEntries(Object.entries(values).map(([node, value]) => [node, cleanStatus(value)]));
  }

  /**
   * Child nodes found by scanning the nodes' hardware managers (rscan -z), as attribute maps.
   *
   * @example
   * ```ts
   * const children = await client.nodes.subnodes("cmm01");
   * ```
   */
  async subnodes(
    noderange: Noderange,
    options?: CallOptions,
  ): Promise<PerNode<Readonly<Record<string, string>>>> {
    const answer = await this.engine.call({ route: "nodes.subnodes", params: this.#nr(noderange), options });
    return attributeMaps(answer);
  }

  /**
   * Power state per node (rpower stat), e.g. `{ n01: "on" }`.
   *
   * @example
   * ```ts
   * const { n01 } = await client.nodes.getPower("n01");
   * ```
   */
  async getPower(noderange: Noderange, options?: CallOptions): Promise<PerNode<string>> {
    const answer = await this.engine.call({ route: "nodes.getPower", params: this.#nr(noderange), options });
    return perNodeValue(answer, ["power"]);
  }

  /**
   * Changes power state (rpower). Retried on transient failures: PUT is how xcatws exposes it and
   * repeating "on" or "off" leaves the same state (a repeated "reset" resets again).
   *
   * @example
   * ```ts
   * await client.nodes.setPower("compute", "on");
   * ```
   */
  async setPower(noderange: Noderange, action: PowerAction, options?: CallOptions): Promise<void> {
    await this.engine.call({
      route: "nodes.setPower",
      params: this.#nr(noderange),
      body: { action },
      options,
    });
  }

  /**
   * All energy values per node (renergy all). An answer with no data is `{}`.
   *
   * @example
   * ```ts
   * const energy = await client.nodes.getEnergy("n01");
   * ```
   */
  async getEnergy(noderange: Noderange, options?: CallOptions): Promise<NodeResults> {
    const answer = await this.engine.call({ route: "nodes.getEnergy", params: this.#nr(noderange), options });
    return nodeResults(answer);
  }

  /**
   * Selected energy values per node (renergy a b).
   *
   * @example
   * ```ts
   * const caps = await client.nodes.getEnergyAttrs("n01", ["cappingstatus", "cappingvalue"]);
   * ```
   */
  async getEnergyAttrs(
    noderange: Noderange,
    attrs: readonly string[],
    options?: CallOptions,
  ): Promise<NodeResults> {
    const answer = await this.engine.call({
      route: "nodes.getEnergyAttrs",
      params: { ...this.#nr(noderange), attrs: attributeListSegment(attrs, "energy attribute") },
      options,
    });
    return nodeResults(answer);
  }

  /**
   * Sets energy attributes (renergy k=v). xcatws passes only the first key of a body on, so each
   * setting is sent as its own request, in the order given.
   *
   * @example
   * ```ts
   * await client.nodes.setEnergy("n01", { cappingstatus: "on", cappingwatt: "300" });
   * ```
   */
  async setEnergy(
    noderange: Noderange,
    settings: Readonly<Record<string, string>>,
    options?: CallOptions,
  ): Promise<void> {
    const params = this.#nr(noderange);
    for (const [key, value] of Object.entries(settings)) {
      await this.engine.call({ route: "nodes.setEnergy", params, body: { [key]: value }, options });
    }
  }

  /**
   * A service-processor setting per node (rspconfig), e.g. item "ip".
   *
   * @example
   * ```ts
   * const ips = await client.nodes.getSp("n01", "ip");
   * ```
   */
  async getSp(noderange: Noderange, item: string, options?: CallOptions): Promise<NodeResults> {
    const answer = await this.engine.call({
      route: "nodes.getSp",
      params: { ...this.#nr(noderange), item: keywordSegment(item, "sp setting") },
      options,
    });
    return nodeResults(answer);
  }

  /**
   * Changes a service-processor setting (rspconfig item=value).
   *
   * @example
   * ```ts
   * await client.nodes.setSp("n01", "community", "public");
   * ```
   */
  async setSp(noderange: Noderange, item: string, value: string, options?: CallOptions): Promise<void> {
    await this.engine.call({
      route: "nodes.setSp",
      params: { ...this.#nr(noderange), item: keywordSegment(item, "sp setting") },
      body: { value },
      options,
    });
  }

  /**
   * The next boot device per node (rsetboot stat).
   *
   * @example
   * ```ts
   * const next = await client.nodes.getNextboot("n01"); // { n01: "Network" }
   * ```
   */
  async getNextboot(noderange: Noderange, options?: CallOptions): Promise<PerNode<string>> {
    const answer = await this.engine.call({
      route: "nodes.getNextboot",
      params: this.#nr(noderange),
      options,
    });
    return perNodeValue(answer, ["nextboot"]);
  }

  /**
   * Sets the next boot device (rsetboot): "net" or "hd".
   *
   * @example
   * ```ts
   * await client.nodes.setNextboot("n01", "net");
   * ```
   */
  async setNextboot(
    noderange: Noderange,
    order: "net" | "hd" | (string & {}),
    options?: CallOptions,
  ): Promise<void> {
    await this.engine.call({
      route: "nodes.setNextboot",
      params: this.#nr(noderange),
      body: { order },
      options,
    });
  }

  /**
   * Boot state per node (nodeset stat). xCAT answers under `bootstate` (or `bootstat` per its docs).
   *
   * @example
   * ```ts
   * const state = await client.nodes.getBootstate("n01"); // { n01: "install rhels8-x86_64-install-compute" }
   * ```
   */
  async getBootstate(noderange: Noderange, options?: CallOptions): Promise<PerNode<string>> {
    const answer = await this.engine.call({
      route: "nodes.getBootstate",
      params: this.#nr(noderange),
      options,
    });
    const out: Record<string, string> = {};
    for (const [node, result] of Object.entries(nodeResults(answer))) out[node] = bootstateOf(result) ?? "";
    return out;
  }

  /**
   * Prepares the next network boot (nodeset): an osimage to install, or a state such as "offline".
   *
   * @example
   * ```ts
   * await client.nodes.setBootstate("n01", { osimage: "rhels8-x86_64-install-compute" });
   * ```
   */
  async setBootstate(noderange: Noderange, target: BootstateTarget, options?: CallOptions): Promise<void> {
    await this.engine.call({
      route: "nodes.setBootstate",
      params: this.#nr(noderange),
      body: { ...target },
      options,
    });
  }

  /**
   * Hardware vitals per node (rvitals all), or only `items` (the vitals/{item} route).
   *
   * @example
   * ```ts
   * const temps = await client.nodes.getVitals("n01", ["temp"]);
   * ```
   */
  async getVitals(
    noderange: Noderange,
    items?: readonly string[],
    options?: CallOptions,
  ): Promise<NodeResults> {
    if (items !== undefined) return this.getVitalsItems(noderange, items, options);
    const answer = await this.engine.call({ route: "nodes.getVitals", params: this.#nr(noderange), options });
    return nodeResults(answer);
  }

  /**
   * Selected vitals per node (rvitals temp voltage ...).
   *
   * @example
   * ```ts
   * const fans = await client.nodes.getVitalsItems("n01", ["fanspeed"]);
   * ```
   */
  async getVitalsItems(
    noderange: Noderange,
    items: readonly string[],
    options?: CallOptions,
  ): Promise<NodeResults> {
    const answer = await this.engine.call({
      route: "nodes.getVitalsItems",
      // xcatws splits this list on ';', not ','.
      params: { ...this.#nr(noderange), item: keywordSegment(items, "vitals item", ";") },
      options,
    });
    return nodeResults(answer);
  }

  /**
   * Hardware inventory per node (rinv all), or only `items`.
   *
   * @example
   * ```ts
   * const models = await client.nodes.getInventory("n01", ["model"]);
   * ```
   */
  async getInventory(
    noderange: Noderange,
    items?: readonly string[],
    options?: CallOptions,
  ): Promise<NodeResults> {
    if (items !== undefined) return this.getInventoryItems(noderange, items, options);
    const answer = await this.engine.call({
      route: "nodes.getInventory",
      params: this.#nr(noderange),
      options,
    });
    return nodeResults(answer);
  }

  /**
   * Selected inventory items per node (rinv pci model ...).
   *
   * @example
   * ```ts
   * const pci = await client.nodes.getInventoryItems("n01", ["pci"]);
   * ```
   */
  async getInventoryItems(
    noderange: Noderange,
    items: readonly string[],
    options?: CallOptions,
  ): Promise<NodeResults> {
    const answer = await this.engine.call({
      route: "nodes.getInventoryItems",
      params: { ...this.#nr(noderange), item: keywordSegment(items, "inventory item", ";") },
      options,
    });
    return nodeResults(answer);
  }

  /**
   * Event log lines per node (reventlog all).
   *
   * @example
   * ```ts
   * const log = await client.nodes.getEventlog("n01"); // { n01: ["...", "..."] }
   * ```
   */
  async getEventlog(noderange: Noderange, options?: CallOptions): Promise<PerNode<readonly string[]>> {
    const answer = await this.engine.call({
      route: "nodes.getEventlog",
      params: this.#nr(noderange),
      options,
    });
    return perNodeLines(answer, "eventlog");
  }

  /**
   * Clears the nodes' event logs (reventlog clear).
   *
   * @example
   * ```ts
   * await client.nodes.clearEventlog("n01");
   * ```
   */
  async clearEventlog(noderange: Noderange, options?: CallOptions): Promise<void> {
    // The body (empty, or an array of {name, eventlog} per the docs) carries nothing to act on.
    await this.engine.call({ route: "nodes.clearEventlog", params: this.#nr(noderange), options });
  }

  /**
   * Beacon (locator LED) state per node (rbeacon stat).
   *
   * @example
   * ```ts
   * const beacon = await client.nodes.getBeacon("n01");
   * ```
   */
  async getBeacon(noderange: Noderange, options?: CallOptions): Promise<PerNode<readonly string[]>> {
    const answer = await this.engine.call({ route: "nodes.getBeacon", params: this.#nr(noderange), options });
    return perNodeLines(answer, "beacon");
  }

  /**
   * Turns the beacon on, off or blinking (rbeacon).
   *
   * @example
   * ```ts
   * await client.nodes.setBeacon("n01", "blink");
   * ```
   */
  async setBeacon(
    noderange: Noderange,
    action: "on" | "off" | "blink",
    options?: CallOptions,
  ): Promise<void> {
    await this.engine.call({
      route: "nodes.setBeacon",
      params: this.#nr(noderange),
      body: { action },
      options,
    });
  }

  /**
   * Full update of the nodes: file sync, software, postscripts (updatenode). Progress lines.
   *
   * @example
   * ```ts
   * const progress = await client.nodes.updating("compute");
   * ```
   */
  async updating(noderange: Noderange, options?: CallOptions): Promise<string[]> {
    const answer = await this.engine.call({ route: "nodes.updating", params: this.#nr(noderange), options });
    return nodeOutputLines(nodeOutput(answer));
  }

  /**
   * Synchronizes files to the nodes (updatenode -F). Progress lines.
   *
   * @example
   * ```ts
   * await client.nodes.filesyncing("compute");
   * ```
   */
  async filesyncing(noderange: Noderange, options?: CallOptions): Promise<string[]> {
    const answer = await this.engine.call({
      route: "nodes.filesyncing",
      params: this.#nr(noderange),
      options,
    });
    return nodeOutputLines(nodeOutput(answer));
  }

  /**
   * Software maintenance on the nodes (updatenode -S).
   *
   * @example
   * ```ts
   * const { byNode } = await client.nodes.sw("compute");
   * ```
   */
  async sw(noderange: Noderange, options?: CallOptions): Promise<NodeOutput> {
    const answer = await this.engine.call({ route: "nodes.sw", params: this.#nr(noderange), options });
    return nodeOutput(answer);
  }

  /**
   * Runs postscripts on the nodes (updatenode -P).
   *
   * @example
   * ```ts
   * await client.nodes.postscript("n01", ["syslog", "remoteshell"]);
   * ```
   */
  async postscript(
    noderange: Noderange,
    scripts: readonly string[],
    options?: CallOptions,
  ): Promise<NodeOutput> {
    const answer = await this.engine.call({
      route: "nodes.postscript",
      params: this.#nr(noderange),
      body: { scripts: [...scripts] },
      options,
    });
    return nodeOutput(answer);
  }

  /**
   * Runs commands on the nodes (xdsh). Never retried once it may have started.
   *
   * @example
   * ```ts
   * const { byNode } = await client.nodes.nodeshell("n01", { command: ["uptime"] });
   * ```
   */
  async nodeshell(noderange: Noderange, input: NodeshellInput, options?: CallOptions): Promise<NodeOutput> {
    const body = defined({
      command: asList(input.command),
      raw: input.raw === undefined ? undefined : asList(input.raw),
      ENV: input.env === undefined ? undefined : { ...input.env },
    });
    const answer = await this.engine.call({
      route: "nodes.nodeshell",
      params: this.#nr(noderange),
      body,
      options,
    });
    return nodeOutput(answer);
  }

  /**
   * Copies files from the management node to the nodes (xdcp).
   *
   * @example
   * ```ts
   * await client.nodes.nodecopy("compute", { src: ["/etc/hosts"], target: "/etc" });
   * ```
   */
  async nodecopy(
    noderange: Noderange,
    input: { readonly src: readonly string[]; readonly target: string },
    options?: CallOptions,
  ): Promise<string[]> {
    const answer = await this.engine.call({
      route: "nodes.nodecopy",
      params: this.#nr(noderange),
      body: { src: [...input.src], target: input.target },
      options,
    });
    return nodeOutputLines(nodeOutput(answer));
  }

  /**
   * Changes virtual machines (chvm): memory, CPUs, disks.
   *
   * @example
   * ```ts
   * await client.nodes.changeVm("vm01", { memorySizeMb: 4096, addDisk: ["20G"] });
   * ```
   */
  async changeVm(noderange: Noderange, input: ChangeVmInput, options?: CallOptions): Promise<void> {
    const body = defined({
      memorysize: input.memorySizeMb === undefined ? undefined : String(input.memorySizeMb),
      cpucount: input.cpuCount === undefined ? undefined : String(input.cpuCount),
      adddisk: input.addDisk?.join(","),
      purgedisk: input.purgeDisk?.join(","),
      resizedisk: input.resizeDisk,
    });
    await this.engine.call({ route: "nodes.changeVm", params: this.#nr(noderange), body, options });
  }

  /**
   * Creates virtual machines for defined VM nodes (mkvm). Not retried once it may have started.
   *
   * @example
   * ```ts
   * await client.nodes.createVm("vm01", { cpuCount: 2, memorySizeMb: 4096, diskSize: "20G" });
   * ```
   */
  async createVm(noderange: Noderange, input: CreateVmInput = {}, options?: CallOptions): Promise<void> {
    const body = defined({
      cpucount: input.cpuCount === undefined ? undefined : String(input.cpuCount),
      memorysize: input.memorySizeMb === undefined ? undefined : String(input.memorySizeMb),
      disksize: input.diskSize,
      master: input.master,
      force: yes(input.force),
    });
    await this.engine.call({ route: "nodes.createVm", params: this.#nr(noderange), body, options });
  }

  /**
   * Removes virtual machines (rmvm); `purge` also deletes their disks.
   *
   * @example
   * ```ts
   * await client.nodes.removeVm("vm01", { purge: true });
   * ```
   */
  async removeVm(
    noderange: Noderange,
    input: { readonly purge?: boolean; readonly force?: boolean } = {},
    options?: CallOptions,
  ): Promise<void> {
    const body = defined({ purge: yes(input.purge), force: yes(input.force) });
    await this.engine.call({
      route: "nodes.removeVm",
      params: this.#nr(noderange),
      ...(Object.keys(body).length > 0 ? { body } : {}),
      options,
    });
  }

  /**
   * Clones a VM to a master, or a VM from a master (clonevm). Message per node.
   *
   * @example
   * ```ts
   * await client.nodes.cloneVm("vm01", { toMaster: "rhels8-master" });
   * ```
   */
  async cloneVm(noderange: Noderange, input: CloneVmInput, options?: CallOptions): Promise<PerNode<string>> {
    const body = defined({
      tomaster: input.toMaster,
      frommaster: input.toMaster === undefined ? input.fromMaster : undefined,
      detach: yes(input.detach),
      force: yes(input.force),
    });
    const answer = await this.engine.call({
      route: "nodes.cloneVm",
      params: this.#nr(noderange),
      body,
      options,
    });
    return perNodeValue(answer, ["vmclone"]);
  }

  /**
   * Live-migrates VMs to another host (rmigrate). Message per node.
   *
   * @example
   * ```ts
   * await client.nodes.migrateVm("vm01", "kvmhost2");
   * ```
   */
  async migrateVm(noderange: Noderange, target: string, options?: CallOptions): Promise<PerNode<string>> {
    const answer = await this.engine.call({
      route: "nodes.migrateVm",
      params: this.#nr(noderange),
      body: { target },
      options,
    });
    return perNodeValue(answer, ["vmmigrate"]);
  }

  /**
   * Expands a noderange to node names (nodels); unknown names are an error.
   *
   * @example
   * ```ts
   * const names = await client.nodes.nodels("n[01-04]"); // ["n01", "n02", "n03", "n04"]
   * ```
   */
  async nodels(noderange: Noderange, options?: CallOptions): Promise<string[]> {
    const answer = await this.engine.call({ route: "nodes.nodels", params: this.#nr(noderange), options });
    return lines(answer);
  }
}

function nodeOutputLines(output: NodeOutput): string[] {
  const grouped = Object.entries(output.byNode).flatMap(([node, nodeLines]) =>
    nodeLines.map((l) => `${node}:${l}`),
  );
  return [...grouped, ...output.lines];
}
