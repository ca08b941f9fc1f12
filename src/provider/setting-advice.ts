/**
 * How a message names a provider setting so that following it works for the resource's provider.
 *
 * Stack config `xcat:<key>` reaches only the default provider (and the dynamic resources): the
 * engine configures an explicit `pulumi:providers:xcat` with that resource's own inputs alone
 * (sdk/go/common/resource/plugin/provider_plugin.go:1048-1131 at v3.259.0: Configure's
 * variables are the provider's inputs), so telling a user of an explicit provider to run
 * `pulumi config set xcat:confluentOmit …` changes nothing. A message names the setting as the
 * settings' origin takes it: stack config for the default provider, the provider's input for an
 * explicit one. The environment variables (XCAT_*) reach every provider process alike.
 */

/** Where a provider process's settings came from. */
export interface SettingsOrigin {
  /** The explicit provider's resource name; absent: stack config (the default provider). */
  readonly explicitProvider?: string | undefined;
}

/** The origin of the default provider and of the dynamic resources: stack config. */
export const STACK_CONFIG: SettingsOrigin = {};

/**
 * The origin of a provider named by the URN the engine sends in Configure. The engine's default
 * providers are those whose name starts with "default" (sdk/go/common/providers/reference.go:49
 * at v3.259.0, `IsDefaultProvider`; named `default` or `default_<version>`).
 *
 * @example
 * originOfProvider("urn:pulumi:dev::lab::pulumi:providers:xcat::mnB"); // { explicitProvider: "mnB" }
 */
export function originOfProvider(urn: string | undefined): SettingsOrigin {
  const name = urn?.split("::").slice(3).join("::") ?? "";
  return name === "" || name.startsWith("default") ? STACK_CONFIG : { explicitProvider: name };
}

/**
 * The setting as a message names it.
 *
 * @example
 * settingName("confluentOmit", {}); // "xcat:confluentOmit"
 * settingName("confluentOmit", { explicitProvider: "mnB" }); // "the confluentOmit input of the provider 'mnB'"
 */
export function settingName(key: string, origin: SettingsOrigin): string {
  return origin.explicitProvider === undefined
    ? `xcat:${key}`
    : `the ${key} input of the provider '${origin.explicitProvider}'`;
}

/**
 * How to give a setting a value, as a sentence. `value` is what to set (a list's whole new
 * value for stack config; for an explicit provider, the entries to add to its list input).
 *
 * @example
 * howToSet("checkConnection", "false", {}); // "run: pulumi config set xcat:checkConnection false"
 * howToSet("checkConnection", "false", { explicitProvider: "mnB" });
 * // "set checkConnection: false on the provider 'mnB' (pulumi:providers:xcat)"
 */
export function howToSet(
  key: string,
  value: string,
  origin: SettingsOrigin,
  options: { add?: boolean } = {},
): string {
  if (origin.explicitProvider === undefined) return `run: pulumi config set xcat:${key} ${value}`;
  const provider = `the provider '${origin.explicitProvider}' (pulumi:providers:xcat)`;
  return options.add
    ? `add ${value} to the ${key} input of ${provider}`
    : `set ${key}: ${value} on ${provider}`;
}
