/**
 * A fresh in-process emulator and a client connected to it.
 */

import { XcatClient, type XcatClientOptions } from "../../../src/client";
import {
  EMULATOR_DEFAULT_PASSWORD,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from "../../../src/emulator";

export const USER = "root";
export const PASSWORD = EMULATOR_DEFAULT_PASSWORD;

export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ user: USER, password: PASSWORD, ...options });
}

/** A client for `emu` with quick retries (the policy is the default one, only the delays shrink). */
export function connect(emu: RunningEmulator, options: Partial<XcatClientOptions> = {}): XcatClient {
  return new XcatClient({
    url: emu.url,
    username: USER,
    password: PASSWORD,
    logger: {},
    retry: { minDelayMs: 5, maxDelayMs: 50 },
    ...options,
  });
}
