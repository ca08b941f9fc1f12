/**
 * The settings of a stack's explicit `pulumi:providers:xcat` (a management node of their own, each
 * with its own url, account and backend), for drift to list those management nodes and review to read what a plan on them needs.
 *
 * Their passwords are Pulumi secrets in the state, and the refresh's event log shows them as
 * `[secret]`, so they are read from `pulumi stack export --show-secrets` in this process's memory
 * (the same backend and passphrase the refresh used); nothing of it is written or printed.
 */
import { execFile } from "node:child_process";
import { type ProviderSettings, settingsFrom } from "../provider/config";
import { isXcatProvider, SECRET_SIG, XCAT_PROVIDER_TYPE } from "./stack-resources";

interface StateResource {
  readonly urn?: string;
  readonly type?: string;
  readonly inputs?: Record<string, unknown>;
}

/** A provider input as the setting's text: a decrypted secret `{sig, plaintext}` is its value. */
function settingText(value: unknown): string | undefined {
  if (typeof value === "object" && value !== null && SECRET_SIG in value) {
    const plaintext = (value as { plaintext?: unknown }).plaintext;
    if (typeof plaintext !== "string") return undefined;
    try {
      return settingText(JSON.parse(plaintext));
    } catch {
      return plaintext;
    }
  }
  if (value === undefined || value === null || typeof value === "object") return undefined;
  return String(value);
}

/**
 * Each explicit xcat provider's settings, by provider URN, from a `stack export --show-secrets`
 * JSON; the environment is not consulted (an explicit provider is configured by its arguments).
 * Throws a ProviderConfigError naming the provider when its arguments are not valid settings.
 */
export function explicitProviderSettings(exported: unknown): Map<string, ProviderSettings> {
  const resources =
    (exported as { deployment?: { resources?: StateResource[] } } | null)?.deployment?.resources ?? [];
  const found = new Map<string, ProviderSettings>();
  for (const resource of resources) {
    if (!isXcatProvider(resource) || resource.urn === undefined) continue;
    const inputs = resource.inputs ?? {};
    found.set(
      resource.urn,
      settingsFrom((key) => settingText(inputs[key.replace(/^xcat:/, "")]), {}),
    );
  }
  return found;
}

/** A secret `{sig, plaintext}` holding an object (a whole `connection` made secret): that object. */
function objectOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  if (!(SECRET_SIG in value)) return value as Record<string, unknown>;
  const plaintext = (value as { plaintext?: unknown }).plaintext;
  if (typeof plaintext !== "string") return undefined;
  try {
    return objectOf(JSON.parse(plaintext));
  } catch {
    return undefined;
  }
}

/**
 * The settings of the `connection` input the state records for the resource `urn` (a TypeScript
 * resource reaching its management node by its own connection), from a `stack export
 * --show-secrets` JSON; undefined when the state holds no such resource or it has no connection.
 * The connection's secrets come decrypted as the export shows them; nothing of it is printed.
 */
export function connectionSettings(exported: unknown, urn: string): ProviderSettings | undefined {
  const resources =
    (exported as { deployment?: { resources?: StateResource[] } } | null)?.deployment?.resources ?? [];
  const resource = resources.find((candidate) => candidate.urn === urn);
  const connection = objectOf(resource?.inputs?.connection);
  if (connection === undefined) return undefined;
  return settingsFrom((key) => settingText(connection[key.replace(/^xcat:/, "")]), {});
}

/** `pulumi stack export --show-secrets` of the stack, parsed; a sentence when it fails (never its output). */
export function exportStack(stack: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      "pulumi",
      ["stack", "export", "--show-secrets", "--non-interactive", "--stack", stack],
      { encoding: "utf8", maxBuffer: 512 * 1024 * 1024 },
      (error, stdout) => {
        if (error) {
          reject(
            new Error(
              `\`pulumi stack export\` of stack ${stack} failed (exit ${String(error.code)}), so the ` +
                `${XCAT_PROVIDER_TYPE} providers' accounts could not be read`,
            ),
          );
          return;
        }
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error(`\`pulumi stack export\` of stack ${stack} printed no JSON`));
        }
      },
    );
  });
}
