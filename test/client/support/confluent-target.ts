/**
 * Where the Confluent suites send their requests: a fresh in-process confluent-emulator (the
 * default), or a real Confluent 3.15.x when CONFLUENT_E2E_URL, CONFLUENT_E2E_USERNAME and
 * CONFLUENT_E2E_PASSWORD name one (then every object a suite makes is named cfb-* and removed).
 */
import { type ConfluentEmulatorOptions, startConfluentEmulator } from "../../../src/confluent-emulator";

export interface ConfluentTarget {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** Whether it is a real Confluent (tests that need the emulator's simulated hardware skip). */
  readonly real: boolean;
  close(): Promise<void>;
}

/** A real Confluent's address and account. */
export interface RealConfluent {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

/** The real Confluent that CONFLUENT_E2E_URL, _USERNAME and _PASSWORD name, if they name one. */
export function realConfluent(): RealConfluent | undefined {
  const url = process.env.CONFLUENT_E2E_URL?.trim();
  if (!url) return undefined;
  return {
    url,
    username: process.env.CONFLUENT_E2E_USERNAME ?? "",
    password: process.env.CONFLUENT_E2E_PASSWORD ?? "",
  };
}

export async function confluentTarget(options: ConfluentEmulatorOptions = {}): Promise<ConfluentTarget> {
  const real = realConfluent();
  if (real) return { ...real, real: true, close: async () => {} };
  const emulator = await startConfluentEmulator(options);
  return {
    url: emulator.url,
    username: options.user ?? "root",
    password: options.password ?? "cluster",
    real: false,
    close: () => emulator.close(),
  };
}
