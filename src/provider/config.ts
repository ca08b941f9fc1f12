/**
 * Where the provider connects: Pulumi stack config (`xcat:url`, `xcat:username`, …) with
 * environment fallbacks (`XCAT_URL`, …), read when the engine calls `configure` and never captured
 * into serialized state; or a resource's own `connection` input for programs that manage more
 * than one management node. Stack config wins over the environment.
 */
import { readFileSync } from "node:fs";
// The URL checks come from their own modules, not the client's index: settings are read at a
// native provider's Configure, before the HTTP transport and response schemas are needed.
import type { XcatClientOptions } from "../client";
import { normalizeBaseUrl } from "../client/base-url";
import type { ConfluentClientOptions } from "../client/confluent";
import { confluentBaseUrl } from "../client/confluent/base-url";
import { type NameServiceChoice, parseNameServices } from "./name-services";
import { providerLogger } from "./provider-lines";
import { type SettingsOrigin, STACK_CONFIG, settingName } from "./setting-advice";

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
   * warnings. The lines go where the provider's other lines go (provider-lines.ts).
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
  /** Stack config (the default provider) or an explicit provider's inputs: how messages name a setting. */
  readonly origin: SettingsOrigin;
  /**
   * The url as the user wrote it, when `connection.url` adds to it (`/xcatws`, `/confluent-api`):
   * messages that name the server (the wrong-backend sentence) name it as given.
   */
  readonly urlAsGiven?: string | undefined;
}

/** How much the provider's clients report; see {@link ProviderSettings.logLevel}. */
export type LogLevel = "warn" | "info" | "debug";

/** Reads one config key; `undefined` when unset. */
export type ConfigLookup = (key: string) => string | undefined;

/** A setting's type and description in the native provider's schema (config and provider inputs). */
export interface SettingSchema {
  readonly type: "string" | "integer" | "boolean" | "array";
  readonly items?: { readonly type: "string" };
  readonly description: string;
}

/** A provider setting: stack config `xcat:<key>`, an explicit provider's input `<key>`, or `env`. */
export interface ProviderSetting {
  readonly key: string;
  readonly env: string;
  /**
   * How the native schema offers it (scripts/generate-native-schema.mjs); absent for the
   * connection's fields, which the schema takes from the Connection type.
   */
  readonly schema?: SettingSchema;
}

const LIST = { type: "array", items: { type: "string" } } as const;

/**
 * Every provider setting. The native schema's `config` and provider inputs are built from this
 * list at build time (and the build fails on a setting the schema lacks), so an option that a
 * message tells a user to set is an input of every provider.
 */
export const PROVIDER_SETTINGS: readonly ProviderSetting[] = [
  { key: "url", env: "XCAT_URL" },
  { key: "username", env: "XCAT_USERNAME" },
  { key: "password", env: "XCAT_PASSWORD" },
  { key: "token", env: "XCAT_TOKEN" },
  { key: "caCert", env: "XCAT_CA_CERT" },
  { key: "insecure", env: "XCAT_INSECURE" },
  {
    key: "requestTimeoutMs",
    env: "XCAT_REQUEST_TIMEOUT_MS",
    schema: { type: "integer", description: "Timeout of one HTTP request, in milliseconds." },
  },
  {
    key: "maxRetries",
    env: "XCAT_MAX_RETRIES",
    schema: { type: "integer", description: "Retries of a request that failed transiently (0: none)." },
  },
  {
    key: "maxConcurrency",
    env: "XCAT_MAX_CONCURRENCY",
    schema: { type: "integer", description: "Requests in flight at most, per management node." },
  },
  {
    key: "batching",
    env: "XCAT_BATCHING",
    schema: { type: "boolean", description: "Merge concurrent reads into batched requests (default true)." },
  },
  {
    key: "logLevel",
    env: "XCAT_LOG_LEVEL",
    schema: {
      type: "string",
      description: "`warn` (default), `info` (retries, token renewals) or `debug` (every request).",
    },
  },
  {
    key: "checkConnection",
    env: "XCAT_CHECK_CONNECTION",
    schema: {
      type: "boolean",
      description: "Prove the URL and credentials with one request when a preview starts (default true).",
    },
  },
  {
    key: "nameServices",
    env: "XCAT_NAME_SERVICES",
    schema: {
      ...LIST,
      description:
        "The name services node writes run on the management node: any of `hosts`, `dns`, `dhcp` " +
        "(all by default), or `none`. As stack config, a comma list: `hosts,dhcp`.",
    },
  },
  { key: "backend", env: "XCAT_BACKEND" },
  {
    key: "confluentOmit",
    env: "XCAT_CONFLUENT_OMIT",
    schema: {
      ...LIST,
      description:
        "On the Confluent backend, the xCAT attributes the program sets that are left out on purpose " +
        "(not sent, not compared, named in each preview) instead of failing preview, e.g. " +
        "`[postscripts, netboot]`. As stack config, a comma list: `postscripts,netboot`.",
    },
  },
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
export function settingsFrom(
  config: ConfigLookup,
  env: NodeJS.ProcessEnv,
  origin: SettingsOrigin = STACK_CONFIG,
): ProviderSettings {
  const raw: Record<string, string> = {};
  for (const { key, env: envName } of PROVIDER_SETTINGS) {
    const value = config(`xcat:${key}`) ?? env[envName];
    if (value !== undefined && value !== "") raw[key] = value;
  }
  const named = (key: string) => settingName(key, origin);
  const url = raw.url;
  const backend = parseBackend(raw.backend, named("backend"));
  return {
    connection:
      url === undefined
        ? undefined
        : {
            url: normalizeUrl(url, named("url"), backend),
            ...pick(raw, "username", "password", "token", "caCert"),
            ...(raw.insecure !== undefined
              ? { insecure: parseBoolean(raw.insecure, named("insecure")) }
              : {}),
            ...(backend !== undefined ? { backend } : {}),
          },
    requestTimeoutMs: parseCount(raw.requestTimeoutMs, named("requestTimeoutMs")),
    maxRetries: parseCount(raw.maxRetries, named("maxRetries"), { allowZero: true }),
    maxConcurrency: parseCount(raw.maxConcurrency, named("maxConcurrency")),
    batching: raw.batching === undefined ? true : parseBoolean(raw.batching, named("batching")),
    logLevel: parseLogLevel(raw.logLevel, named("logLevel")),
    checkConnection:
      raw.checkConnection === undefined ? true : parseBoolean(raw.checkConnection, named("checkConnection")),
    nameServices: nameServicesSetting(raw.nameServices, named("nameServices")),
    confluentOmit: parseList(raw.confluentOmit, named("confluentOmit")),
    origin,
    ...(url !== undefined ? { urlAsGiven: url } : {}),
  };
}

/**
 * A list setting: a comma list (stack config, XCAT_* variables) or a JSON array of strings (an
 * explicit provider's list input, which the engine sends JSON-encoded in Configure's variables:
 * provider_plugin.go:1068-1080 at v3.259.0; also `pulumi config set --path 'xcat:key[0]' …`).
 */
export function parseList(text: string | undefined, what: string): string[] {
  if (text === undefined) return [];
  let entries: unknown[] = text.split(",");
  if (text.trim().startsWith("[")) {
    try {
      entries = JSON.parse(text) as unknown[];
    } catch {
      throw new ProviderConfigError(`${what} must be a list of names, got '${text}'`);
    }
    if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== "string"))
      throw new ProviderConfigError(`${what} must be a list of names, got '${text}'`);
  }
  return entries.map((entry) => String(entry).trim()).filter((entry) => entry !== "");
}

function nameServicesSetting(text: string | undefined, what: string): NameServiceChoice {
  try {
    return parseNameServices(text === undefined ? undefined : parseList(text, what).join(","));
  } catch (error) {
    if (error instanceof ProviderConfigError) throw error;
    // parseNameServices names the stack setting; say it as this provider takes it.
    throw new ProviderConfigError((error as Error).message.replace(/^xcat:nameServices/, what));
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
 * A Confluent client's URL, account and transport from a connection whose user and password the
 * caller has checked (Confluent takes no token).
 */
export function confluentClientOptionsOf(
  connection: ConnectionInput,
  username: string,
  password: string,
  urlAsGiven?: string,
): Pick<ConfluentClientOptions, "url" | "urlAsGiven" | "username" | "password" | "caCert" | "insecure"> {
  return {
    url: connection.url,
    ...(urlAsGiven !== undefined ? { urlAsGiven } : {}),
    username,
    password,
    ...(connection.caCert !== undefined ? { caCert: connection.caCert } : {}),
    ...(connection.insecure !== undefined ? { insecure: connection.insecure } : {}),
  };
}

/**
 * The client options for a connection. Needs a URL and either a token or a username and password;
 * the message says where each can be set.
 */
export function clientOptionsFor(
  connection: ConnectionInput | undefined,
  settings: ProviderSettings,
): XcatClientOptions {
  const origin = settings.origin;
  if (!connection) {
    const setUrl =
      origin.explicitProvider === undefined
        ? "Set it with `pulumi config set xcat:url https://<management node>/xcatws`"
        : `Give the provider '${origin.explicitProvider}' a url`;
    throw new ProviderConfigError(
      `no xCAT URL is set. ${setUrl} (or the XCAT_URL environment variable), or give the resource a \`connection\`.`,
    );
  }
  if (!connection.token && !(connection.username && connection.password)) {
    const credentials =
      origin.explicitProvider === undefined
        ? "Set xcat:username and xcat:password (pulumi config set --secret xcat:password …), or xcat:token"
        : `Give the provider '${origin.explicitProvider}' a username and password (a secret), or a token`;
    throw new ProviderConfigError(
      `no credentials for ${connection.url}. ${credentials}, or the XCAT_USERNAME/XCAT_PASSWORD or XCAT_TOKEN ` +
        "environment variables.",
    );
  }
  return {
    url: connection.url,
    // The stack's own url as the user wrote it, for messages (a resource's connection is as given).
    ...(connection === settings.connection && settings.urlAsGiven !== undefined
      ? { urlAsGiven: settings.urlAsGiven }
      : {}),
    ...pick(connection, "username", "password", "token"),
    ...(connection.caCert !== undefined
      ? {
          caCert: readCaCert(
            connection.caCert,
            connection === settings.connection ? settingName("caCert", origin) : "connection.caCert",
          ),
        }
      : {}),
    ...(connection.insecure !== undefined ? { insecure: connection.insecure } : {}),
    ...(settings.requestTimeoutMs !== undefined ? { requestTimeoutMs: settings.requestTimeoutMs } : {}),
    ...(settings.maxRetries !== undefined ? { retry: { attempts: settings.maxRetries + 1 } } : {}),
    ...(settings.maxConcurrency !== undefined ? { maxConcurrency: settings.maxConcurrency } : {}),
    // Lines go where the provider's lines go; the client redacts each before it logs it.
    logger: providerLogger(settings.logLevel, "XcatClientWarning"),
  };
}

function parseLogLevel(text: string | undefined, what: string): LogLevel | undefined {
  if (text === undefined) return undefined;
  const lowered = text.trim().toLowerCase();
  if (lowered === "warn" || lowered === "info" || lowered === "debug") return lowered;
  throw new ProviderConfigError(`${what} must be warn, info or debug, got '${text}'`);
}

/** `caCert` is PEM text, or the path of a file holding it. */
function readCaCert(value: string, what: string): string {
  if (value.includes("-----BEGIN")) return value;
  try {
    return readFileSync(value, "utf8");
  } catch (error) {
    throw new ProviderConfigError(
      `${what} is neither PEM text nor a readable file: ${value} (${(error as Error).message})`,
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
