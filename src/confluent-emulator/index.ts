/**
 * pulumi-xcat/confluent-emulator: a local emulator of Confluent's HTTP API (release 3.15.6), for
 * tests, demos and CI pipelines without a Confluent server.
 *
 * @packageDocumentation
 */

export type {
  ConfluentEmulatorOptions,
  ConfluentEmulatorState,
  RunningConfluentEmulator,
} from "./options";
export { DEFAULT_DEPLOYMENT_PROFILES, startConfluentEmulator } from "./start-confluent-emulator";
