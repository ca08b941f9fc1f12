/**
 * The emulated management node's state and commands, wired together. Nothing here knows HTTP:
 * the web layer calls these commands and shapes their results and CommandErrors into responses.
 */
import { NEWEST_XCAT_VERSION, type XcatVersion } from "../../contract/xcat-versions";
import { Accounts } from "./accounts";
import { BootSimulation, type BootSimulationOptions } from "./boot-sequence";
import { Database } from "./database";
import { Definitions } from "./definitions";
import { Hardware } from "./hardware";
import { DEFAULT_MN_INTERFACES, type MnInterface } from "./mn-interfaces";
import { NetworkServices } from "./network-services";
import { NodeActions } from "./node-actions";
import { NodeIndex } from "./node-index";
import { NodeSelection } from "./node-selection";
import { ObjectReader } from "./object-reader";
import { Provisioning } from "./provisioning";
import { RemoteCommands } from "./remote-commands";
import { seedManagementNode } from "./seed";
import { TableCommands } from "./table-commands";
import { VmActions } from "./vm-actions";

export interface StoreOptions {
  readonly dataFile?: string;
  readonly user: string;
  readonly password: string;
  readonly seed: number;
  readonly tokenTtlSeconds?: number;
  readonly clock?: () => Date;
  /** How nodes boot after a power action (boot time, nodes that fail or hang). */
  readonly boot?: BootSimulationOptions;
  /** The MN's own interfaces; DEFAULT_MN_INTERFACES when absent. */
  readonly mnInterfaces?: readonly MnInterface[];
  /** The xCAT release to behave as (default the newest; see contract/xcat-versions.ts). */
  readonly xcatVersion?: XcatVersion;
}

export class XcatStore {
  readonly db: Database;
  readonly index: NodeIndex;
  readonly definitions: Definitions;
  readonly hardware: Hardware;
  readonly actions: NodeActions;
  readonly vms: VmActions;
  readonly remote: RemoteCommands;
  readonly provisioning: Provisioning;
  readonly services: NetworkServices;
  readonly tables: TableCommands;
  /** What noderanges in paths expand against: names, groups and attribute selectors. */
  readonly noderange: NodeSelection;
  readonly accounts: Accounts;
  readonly boots: BootSimulation;
  /** The xCAT release this store behaves as. */
  readonly version: XcatVersion;

  constructor(options: StoreOptions) {
    this.version = options.xcatVersion ?? NEWEST_XCAT_VERSION;
    const clock = options.clock ?? (() => new Date());
    this.db = new Database(options.dataFile);
    this.index = new NodeIndex(this.db);
    const reader = new ObjectReader(this.db, this.index);
    this.hardware = new Hardware(this.db, options.seed, clock);
    this.definitions = new Definitions(
      this.db,
      this.index,
      reader,
      (names) => {
        this.hardware.forget(names);
        this.boots.forget(names);
      },
      this.version,
    );
    this.boots = new BootSimulation(this.db, this.definitions, clock, options.boot);
    this.actions = new NodeActions(this.definitions, this.hardware, this.boots);
    this.vms = new VmActions(this.db, this.definitions, this.hardware);
    this.remote = new RemoteCommands(this.db, this.definitions, this.hardware);
    this.provisioning = new Provisioning(this.db, this.definitions, (name) => this.services.resolve(name));
    this.services = new NetworkServices(
      this.db,
      this.definitions,
      options.seed,
      options.mnInterfaces ?? DEFAULT_MN_INTERFACES,
    );
    this.tables = new TableCommands(this.db, this.index);
    this.noderange = new NodeSelection(this.index, this.tables);
    this.accounts = new Accounts(this.db, clock, {
      ...(options.tokenTtlSeconds !== undefined ? { ttlSeconds: options.tokenTtlSeconds } : {}),
    });
    seedManagementNode(this.db, { user: options.user, password: options.password }, options.xcatVersion);
  }

  /** Lets simulated time pass: writes the node statuses that are due (before each request). */
  tick(): void {
    this.boots.advance();
  }

  close(): void {
    this.db.close();
  }
}
