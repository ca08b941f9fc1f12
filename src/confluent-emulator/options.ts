/**
 * The public option and result types of the Confluent emulator library.
 */

/** Settings of an in-process Confluent emulator; every field is optional. */
export interface ConfluentEmulatorOptions {
  /** TCP port; 0 or absent picks a free port. */
  readonly port?: number;
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** SQLite file that keeps the data across restarts; in memory when absent. */
  readonly dataFile?: string;
  /** The Confluent user (an Administrator); default root / cluster, as xcat-emulator. */
  readonly user?: string;
  readonly password?: string;
  /** Seconds from a network boot with a pending profile to `deployment.profile` set (default 30). */
  readonly bootSeconds?: number;
  /** Nodes whose deployment fails (deployment.state `failed`), for tests. */
  readonly failNodes?: readonly string[];
  /** Nodes whose deployment never progresses past the boot, for tests. */
  readonly hangNodes?: readonly string[];
  /**
   * The clock deployments move by, in ms (default Date.now). A test passes one it sets by hand, so
   * that what a deployment reached does not depend on how fast the machine runs the test.
   */
  readonly now?: () => number;
  /**
   * A cluster to add to a fresh database (ignored for a data file seeded before): `racks:RxN`
   * (R racks of N nodes in groups compute and rackRR, BMCs, MACs and addresses), or `demo-600`.
   */
  readonly seedCluster?: string;
  /**
   * Deployment profiles the server offers (/deployment/profiles/). Default:
   * rocky-9.4-x86_64-default and ubuntu-22.04-x86_64-default.
   */
  readonly deploymentProfiles?: readonly string[];
  /** BMC addresses (hardwaremanagement.manager values) that never answer: power and boot time out (504). */
  readonly unreachableBmcs?: readonly string[];
  /**
   * BMC addresses with the one account each accepts; a node whose secret.hardwaremanagementuser /
   * password differ gets 502 Bad Credentials. BMCs not listed accept any credentials.
   */
  readonly bmcAccounts?: Readonly<Record<string, { readonly user: string; readonly password: string }>>;
  /** The version /version reports (default 3.15.6, the release the emulator follows). */
  readonly version?: string;
}

/** A running Confluent emulator. */
export interface RunningConfluentEmulator {
  /** Base URL of the API, ending in /confluent-api. */
  readonly url: string;
  /** Read-only views for tests, as Confluent's API would show them. */
  readonly state: ConfluentEmulatorState;
  /** Stops listening, ends open connections and closes the data file. */
  close(): Promise<void>;
}

export interface ConfluentEmulatorState {
  nodeNames(): string[];
  groupNames(): string[];
  /** attributes/current of a node (secrets as `{isset}`), or undefined when it does not exist. */
  nodeAttributes(node: string): Record<string, unknown> | undefined;
  /** attributes/current of a group, or undefined. */
  groupAttributes(group: string): Record<string, unknown> | undefined;
  /** The simulated power state. */
  power(node: string): "on" | "off" | undefined;
  /** Every request received so far (method, path without query), oldest first. */
  requests(): { readonly method: string; readonly path: string }[];
}
