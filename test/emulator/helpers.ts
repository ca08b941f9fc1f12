/**
 * Shared helpers of the emulator conformance suite: a fresh in-process emulator and a small
 * request function built on undici's `request` (not on the client under construction), which,
 * unlike fetch, can send a body with GET as xCAT clients do.
 */

import { request } from "undici";
import { afterAll, beforeAll } from "vitest";
import {
  EMULATOR_DEFAULT_PASSWORD,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from "../../src/emulator";

export const AUTH = `userName=root&userPW=${EMULATOR_DEFAULT_PASSWORD}`;

export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly contentType: string | null;
  /** The body parsed as JSON, or undefined when empty / not JSON. */
  readonly json: unknown;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Raw body text (sent as is). */
  readonly raw?: string;
  readonly contentType?: string;
  readonly token?: string;
  /** Do not add userName/userPW to the query. */
  readonly noAuth?: boolean;
}

/** Sends one request to `path` below the base URL; credentials go in the query unless noAuth. */
export async function call(
  xcat: RunningEmulator,
  method: string,
  path: string,
  options: RequestOptions = {},
) {
  const sep = path.includes("?") ? "&" : "?";
  const url = `${xcat.url}${path}${options.noAuth || options.token ? "" : `${sep}${AUTH}`}`;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined || options.contentType)
    headers["content-type"] = options.contentType ?? "application/json";
  if (options.token) headers["x-auth-token"] = options.token;
  const res = await request(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.body.text();
  const contentType = res.headers["content-type"];
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: res.statusCode,
    text,
    contentType: typeof contentType === "string" ? contentType : null,
    json,
  } satisfies Reply;
}

/** Starts one emulator for the file (port 0) and closes it afterwards. */
export function useEmulator(options: EmulatorOptions = {}): { readonly xcat: RunningEmulator } {
  const holder: { xcat?: RunningEmulator } = {};
  beforeAll(async () => {
    holder.xcat = await startEmulator(options);
  });
  afterAll(async () => {
    await holder.xcat?.close();
  });
  return {
    get xcat(): RunningEmulator {
      if (!holder.xcat) throw new Error("emulator not started");
      return holder.xcat;
    },
  };
}

/** Creates nodes through the API (POST), asserting success. */
export async function createNode(xcat: RunningEmulator, name: string, attributes: Record<string, unknown>) {
  const reply = await call(xcat, "POST", `/nodes/${name}`, { body: attributes });
  if (reply.status !== 201) throw new Error(`create ${name} failed: ${reply.status} ${reply.text}`);
}
