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

export async function confluentTarget(options: ConfluentEmulatorOptions = {}): Promise<ConfluentTarget> {
  const url = process.env.CONFLUENT_E2E_URL;
  if (url) {
    return {
      url,
      username: process.env.CONFLUENT_E2E_USERNAME ?? "",
      password: process.env.CONFLUENT_E2E_PASSWORD ?? "",
      real: true,
      close: async () => {},
    };
  }
  const emulator = await startConfluentEmulator(options);
  return {
    url: emulator.url,
    username: options.user ?? "root",
    password: options.password ?? "cluster",
    real: false,
    close: () => emulator.close(),
  };
}
