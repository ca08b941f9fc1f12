/**
 * Where the provider connects: Pulumi stack config (`xcat:url`, `xcat:username`, …) with
 * environment fallbacks (`XCAT_URL`, …), read when the engine calls `configure` and never captured
 * into serialized state; or a resource's own `connection` input for programs that manage more
 * than one management node. Stack config wins over the environment.
 */
import { readFileSync } from "node:fs";
import { normalizeBaseUrl, type XcatClientOptions, type XcatLogger } from "../client";
import { confluentBaseUrl } from "../client/confluent";
import { type NameServiceChoice, parseNameServices } from "./name-services";

/** The management server's kind: xCAT's xcatws (the default) or Confluent's API. */
export type BackendName = "xcat" | "confluent";
export const BACKENDS: readonly BackendName[] = ["xcat", "confluent"];

/** The `connection` input a resource may carry (password and token are secrets). */
export interface ConnectionInput {
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
  readonly token?: string;
  /** PEM text or the path of a PEM file. */
  readonly caCert?: string;
  readonly insecure?: boolean;
  /** The server's kind; absent: the stack's `xcat:backend` (xcat by default). */
  readonly backend?: BackendName;
}

/** Settings of the provider process, from stack config and the environment. */
export interface ProviderSettings {
  readonly connection?: ConnectionInput | undefined;
  readonly requestTimeoutMs?: number | undefined;
  readonly maxRetries?: number | undefined;
  readonly maxConcurrency?: number | undefined;
  /** Merge concurrent reads into batched requests (on by default). */
  readonly batching: boolean;
  /**
   * `info` also reports retries and token renewals, `debug` every HTTP exchange; absent: only
   * warnings. The lines go to the provider's stderr, which the engine shows in its output.
   */
  readonly logLevel?: LogLevel | undefined;
  /**
   * Prove each management node's URL and credentials with one request when a preview or up
   * first checks a resource of it (on by default; off for previews without a network).
   */
  readonly checkConnection: boolean;
  /**
   * Which name services node writes run (`xcat:nameServices`: hosts, dns, dhcp, or none; all by
   * default). See name-services.ts.
   */
  readonly nameServices: NameServiceChoice;
  /**
   * On the Confluent backend, the xCAT attributes the program sets that are left out on purpose
   * (`xcat:confluentOmit`, e.g. `postscripts,netboot`): not sent, not compared, and named in each
   * preview instead of refused. Empty by default: an attribute with no counterpart fails preview.
   */
  readonly confluentOmit: readonly string[];
}

/** How much the provider's clients report; see {@link ProviderSettings.logLevel}. */
export type LogLevel = "warn" | "info" | "debug";

/** Reads one config key; `undefined` when unset. */
export type ConfigLookup = (key: string) => string | undefined;

const SETTINGS: ReadonlyArray<readonly [key: string, env: string]> = [
  ["url", "XCAT_URL"],
  ["username", "XCAT_USERNAME"],
  ["password", "XCAT_PASSWORD"],
  ["token", "XCAT_TOKEN"],
  ["caCert", "XCAT_CA_CERT"],
  ["insecure", "XCAT_INSECURE"],
  ["requestTimeoutMs", "XCAT_REQUEST_TIMEOUT_MS"],
  ["maxRetries", "XCAT_MAX_RETRIES"],
  ["maxConcurrency", "XCAT_MAX_CONCURRENCY"],
  ["batching", "XCAT_BATCHING"],
  ["logLevel", "XCAT_LOG_LEVEL"],
  ["checkConnection", "XCAT_CHECK_CONNECTION"],
  ["nameServices", "XCAT_NAME_SERVICES"],
  ["backend", "XCAT_BACKEND"],
  ["confluentOmit", "XCAT_CONFLUENT_OMIT"],
];

/** Problems found in the provider configuration, phrased for the person who set it. */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(`pulumi-xcat configuration: ${message}`);
    this.name = "ProviderConfigError";
  }
}

/**
 * Builds the provider settings from stack config (`config("xcat:url")`) and the environment.
 *
 * @example
 * settingsFrom((key) => req.config.get(key), process.env)
 */
export function settingsFrom(config: ConfigLookup, env: NodeJS.ProcessEnv): ProviderSettings {
  const raw: Record<string, string> = {};
  for (const [key, envName] of SETTINGS) {
    const value = config(`xcat:${key}`) ?? env[envName];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const url = raw.url;
  const backend = parseBackend(raw.backend, "xcat:backend");
  return {
    connection:
      url === undefined
        ? undefined
        : {
            url: normalizeUrl(url, "xcat:url", backend),
            ...pick(raw, "username", "password", "token", "caCert"),
            ...(raw.insecure !== undefined ? { insecure: parseBoolean(raw.insecure, "xcat:insecure") } : {}),
            ...(backend !== undefined ? { backend } : {}),
          },
    requestTimeoutMs: parseCount(raw.requestTimeoutMs, "xcat:requestTimeoutMs"),
    maxRetries: parseCount(raw.maxRetries, "xcat:maxRetries", { allowZero: true }),
    maxConcurrency: parseCount(raw.maxConcurrency, "xcat:maxConcurrency"),
    batching: raw.batching === undefined ? true : parseBoolean(raw.batching, "xcat:batching"),
    logLevel: parseLogLevel(raw.logLevel),
    checkConnection:
      raw.checkConnection === undefined ? true : parseBoolean(raw.checkConnection, "xcat:checkConnection"),
    nameServices: nameServicesSetting(raw.nameServices),
    confluentOmit: (raw.confluentOmit ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== ""),
  };
}

function nameServicesSetting(text: string | undefined): NameServiceChoice {
  try {
    return parseNameServices(text);
  } catch (error) {
    throw new ProviderConfigError((error as Error).message);
  }
}

/** The backend named by `xcat:backend` (or a connection's `backend`); undefined when unset. */
export function parseBackend(text: string | undefined, what: string): BackendName | undefined {
  if (text === undefined) return undefined;
  const lowered = text.trim().toLowerCase();
  if (lowered === "xcat" || lowered === "confluent") return lowered;
  throw new ProviderConfigError(`${what} must be xcat or confluent, got '${text}'`);
}

/**
 * A base URL with no path gets `/xcatws`, as the service lives there on every management node;
 * on the Confluent backend `/confluent-api`, where Confluent's web front end serves its API.
 */
export function normalizeUrl(text: string, what: string, backend: BackendName = "xcat"): string {
  try {
    return backend === "confluent" ? confluentBaseUrl(text).href : normalizeBaseUrl(text).href;
  } catch (error) {
    throw new ProviderConfigError(`${what}: ${(error as Error).message}`);
  }
}

/**
 * The client options for a connection. Needs a URL and either a token or a username and password;
 * the message says where each can be set.
 */
export function clientOptionsFor(
  connection: ConnectionInput | undefined,
  settings: ProviderSettings,
): XcatClientOptions {
  if (!connection) {
    throw new ProviderConfigError(
      "no xCAT URL is set. Set it with `pulumi config set xcat:url https://<management node>/xcatws` " +
        "(or the XCAT_URL environment variable), or give the resource a `connection`.",
    );
  }
  if (!connection.token && !(connection.username && connection.password)) {
    throw new ProviderConfigError(
      `no credentials for ${connection.url}. Set xcat:username and xcat:password (pulumi config set --secret ` +
        "xcat:password …), or xcat:token, or the XCAT_USERNAME/XCAT_PASSWORD or XCAT_TOKEN environment variables.",
    );
  }
  return {
    url: connection.url,
    ...pick(connection, "username", "password", "token"),
    ...(connection.caCert !== undefined ? { caCert: readCaCert(connection.caCert) } : {}),
    ...(connection.insecure !== undefined ? { insecure: connection.insecure } : {}),
    ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
    ...(settings.maxRetries !== undefined ? { retry: { attempts: settings.maxRetries + 1 } } : {}),
    ...(settings.maxConcurrency !== undefined ? { maxConcurrency: settings.maxConcurrency } : {}),
    ...(settings.logLevel === "info" || settings.logLevel === "debug"
      ? { logger: stderrLogger(settings.logLevel) }
      : {}),
  };
}

/**
 * A client logger writing to the provider's stderr, which the engine shows in its output. The
 * client redacts every line before it logs it. Warnings keep the client's default
 * (`process.emitWarning`), so they look the same whatever the level.
 */
function stderrLogger(level: "info" | "debug"): XcatLogger {
  const write = (message: string) => process.stderr.write(`pulumi-xcat: ${message}\n`);
  return {
    warn: (message) => process.emitWarning(message, { type: "XcatClientWarning" }),
    info: write,
    ...(level === "debug" ? { debug: write } : {}),
  };
}

function parseLogLevel(text: string | undefined): LogLevel | undefined {
  if (text === undefined) return undefined;
  const lowered = text.trim().toLowerCase();
  if (lowered === "warn" || lowered === "info" || lowered === "debug") return lowered;
  throw new ProviderConfigError(`xcat:logLevel must be warn, info or debug, got '${text}'`);
}

/** `caCert` is PEM text, or the path of a file holding it. */
function readCaCert(value: string): string {
  if (value.includes("-----BEGIN")) return value;
  try {
    return readFileSync(value, "utf8");
  } catch (error) {
    throw new ProviderConfigError(
      `xcat:caCert is neither PEM text nor a readable file: ${value} (${(error as Error).message})`,
    );
  }
}

function parseBoolean(text: string, what: string): boolean {
  const lowered = text.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(lowered)) return true;
  if (["0", "false", "no", "off"].includes(lowered)) return false;
  throw new ProviderConfigError(`${what} must be true or false, got '${text}'`);
}

function parseCount(
  text: string | undefined,
  what: string,
  options: { allowZero?: boolean } = {},
): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0 || (value === 0 && !options.allowZero)) {
    throw new ProviderConfigError(
      `${what} must be a whole number${options.allowZero ? "" : " above 0"}, got '${text}'`,
    );
  }
  return value;
}

function pick<T extends object, K extends keyof T>(source: T, ...keys: K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) {
    if (source[key] !== undefined) picked[key] = source[key];
  }
  return picked;
}
