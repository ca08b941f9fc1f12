/**
 * The public option and result types of the emulator library.
 */
import type { XcatVersion } from "../contract/xcat-versions";
import type { EMULATOR_DEFAULT_PASSWORD } from "./default-account";
import type { JsonDecoder } from "./http/request-params";
import type { ClusterSeed } from "./seed-cluster";
import type { EmulatorState } from "./state";
import type { MnInterface } from "./store/mn-interfaces";

/** Settings of an in-process emulator; every field is optional. */
export interface EmulatorOptions {
  /** TCP port; 0 or absent picks a free port. */
  readonly port?: number;
  /** Address to listen on (default 127.0.0.1). */
  readonly host?: string;
  /** Serve HTTPS: `true` generates a self-signed certificate for 127.0.0.1/localhost; or give PEMs. */
  readonly https?: boolean | { readonly cert: string; readonly key: string };
  /** SQLite file that keeps the data across restarts; in memory when absent. */
  readonly dataFile?: string;
  /** The account (passwd key=xcat); default root / {@link EMULATOR_DEFAULT_PASSWORD}. */
  readonly user?: string;
  readonly password?: string;
  /** Fraction 0..1 of requests that hit a transient fault (503, 408 or a dropped connection). */
  readonly faultRate?: number;
  /** Random delay added to each request, in milliseconds, [min, max]. */
  readonly latencyMs?: readonly [number, number];
  /** Token validity in seconds, overriding site.tokenexpiredays. */
  readonly tokenTtlSeconds?: number;
  /** Seed for faults, latency and generated hardware data (default 1). */
  readonly seed?: number;
  /**
   * "xcat": each request costs what it costs a real xCAT management node (a Perl CGI start plus
   * an xcatd round trip, ~0.3 s of CPU, and per-object work), sharing `mnCpus` CPUs. Default: none.
   */
  readonly costModel?: "xcat" | "none";
  /** CPUs of the emulated management node for the cost model (default 2). */
  readonly mnCpus?: number;
  /** Multiplies the cost model's times (0.01 = a hundredth), for fast tests. Default 1. */
  readonly costScale?: number;
  /** Seconds a node takes from power-on to `booted` after a network boot (default 30). */
  readonly bootSeconds?: number;
  /** Nodes whose installation fails (status `failed`) at every boot, for tests. */
  readonly failNodes?: readonly string[];
  /** Nodes that hang in the installer (status stays `installing`) at every boot, for tests. */
  readonly hangNodes?: readonly string[];
  /**
   * A cluster to add to a fresh database (ignored for a data file seeded before): a preset
   * (`racks:20x30`, `demo-600`), the path of a JSON seed file, or the rows themselves.
   */
  readonly seedCluster?: string | ClusterSeed;
  /**
   * The management node's own interfaces, which makenetworks discovers and GET /localres/adapters
   * lists. Default: eth0 10.0.0.1/255.255.0.0 (gateway 10.0.0.254) and eth1
   * 192.168.122.10/255.255.255.0 (gateway 192.168.122.1).
   */
  readonly mnInterfaces?: readonly MnInterface[];
  /**
   * The xCAT release to behave as where releases differ (docs/xcat-versions.md): 2.16.5 drops
   * empty values from object bodies, releases before 2.18 write the other attributes of an object
   * whose only_if condition fails, and each knows its own attributes. Default: the newest.
   */
  readonly xcatVersion?: XcatVersion;
  /**
   * The Perl module the emulated CGI decodes request bodies with, which words the 400 answer to a
   * malformed body: JSON.pm uses JSON::XS when it is installed (as on Debian, where libjson-perl
   * recommends it), else JSON::PP. Default JSON::XS.
   */
  readonly jsonDecoder?: JsonDecoder;
  /** Deterministic faults for tests. */
  readonly faults?: {
    /** The next `times` requests fail with `status` (or a dropped connection), before or after being applied. */
    readonly failNext?: {
      readonly status: 503 | 408 | "drop";
      readonly times: number;
      readonly when?: "before" | "after";
    };
  };
}

/** Request counters. */
export interface EmulatorStats {
  /** Every request received, faulted ones included. */
  readonly total: number;
  /** Requests per `METHOD /route/{pattern}` of routes.ts (`GET /` for the root, `METHOD (unsupported)` otherwise). */
  readonly byRoute: Record<string, number>;
  /** Requests that were answered with an injected fault. */
  readonly faultsInjected: number;
  /**
   * With the cost model: the management node's CPU-seconds charged so far (unscaled), the work a
   * real management node would have done for these requests.
   */
  readonly mnCpuSeconds?: number;
  /**
   * With the cost model: of `mnCpuSeconds`, those charged while the model did not wait
   * ({@link RunningEmulator.setCostModelWaits}): charged and counted, answered at once.
   */
  readonly mnCpuSecondsNotWaited?: number;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL of the service, ending in /xcatws. */
  readonly url: string;
  readonly state: EmulatorState;
  stats(): EmulatorStats;
  /**
   * With the cost model only: whether requests wait for the management node's time (true, the
   * default) or are charged to `stats().mnCpuSecondsNotWaited` and answered at once (false), for a
   * benchmark step that is modelled, not waited (scripts/bench.mjs `--not-waited up`).
   */
  setCostModelWaits?(waits: boolean): void;
  /** Stops listening, ends open connections and closes the data file. */
  close(): Promise<void>;
  /** With HTTPS and a generated certificate: the certificate, to use as the client's CA. */
  readonly caCertPem?: string;
}
