/**
 * pulumi-xcat/emulator: a local, faithful emulator of xCAT's REST web service (xcatws), for
 * tests, demos and CI pipelines without an xCAT management node.
 *
 * @packageDocumentation
 */

export { XCAT_VERSIONS, type XcatVersion } from "../contract/xcat-versions";
export { EMULATOR_DEFAULT_PASSWORD, EMULATOR_DEFAULT_USER } from "./default-account";
export type { JsonDecoder } from "./http/request-params";
export type { EmulatorOptions, EmulatorStats, RunningEmulator } from "./options";
export { startEmulator } from "./start-emulator";
export type { EmulatorState } from "./state";
export type { BootOutcome } from "./store/boot-sequence";
export type { HardwareState, VirtualDisk } from "./store/hardware";
export type { MnInterface } from "./store/mn-interfaces";
