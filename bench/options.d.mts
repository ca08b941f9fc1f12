/** Types of bench/options.mjs, for the tests that import it. */
export declare const VARIANTS: readonly string[];
export declare const DEFAULT_VARIANTS: readonly string[];
export declare const STEPS: readonly string[];

export interface BenchOptions {
  nodes: number;
  parallel: number | "default";
  variants: string[];
  setSize: number;
  env: Record<string, string>;
  keep: boolean;
  checkpoints: boolean;
  rounds: number;
  profileDir: string | undefined;
  costModel: "xcat" | "none" | "real";
  mnCpus: number;
  perObjectNodes: number;
  clusterLeg: boolean;
  /** The steps this run runs, in life-cycle order. */
  steps: string[];
  /** The steps the emulators charge without waiting for, in life-cycle order. */
  notWaited: string[];
  url: string | undefined;
  accessLog: string | undefined;
  help: boolean;
}

export declare function parseArgs(
  argv: readonly string[],
  env?: Record<string, string | undefined>,
): BenchOptions;
