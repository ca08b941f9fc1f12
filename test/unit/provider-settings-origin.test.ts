/**
 * Provider settings for every provider (issue #36 item 6): a setting's name and the way to set it
 * as the resource's provider takes it (stack config `xcat:<key>` for the default provider, the
 * input of an explicit `pulumi:providers:xcat`), list settings given as a comma list or as the
 * JSON array the engine sends for an explicit provider's list input, and every setting in the
 * native schema's config and provider inputs.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { clientOptionsFor, PROVIDER_SETTINGS, parseList, settingsFrom } from "../../src/provider/config";
import { howToSet, originOfProvider, settingName } from "../../src/provider/setting-advice";

const lookup = (values: Record<string, string>) => (key: string) => values[key];
const MN_B = { explicitProvider: "mnB" };

describe("where a setting comes from", () => {
  it("a provider named default… is the default provider (stack config); any other is explicit", () => {
    expect(originOfProvider("urn:pulumi:dev::lab::pulumi:providers:xcat::default")).toEqual({});
    expect(originOfProvider("urn:pulumi:dev::lab::pulumi:providers:xcat::default_0_1_0")).toEqual({});
    expect(originOfProvider("urn:pulumi:dev::lab::pulumi:providers:xcat::mnB")).toEqual(MN_B);
    expect(originOfProvider(undefined)).toEqual({});
  });

  it("names the setting and how to set it for that provider", () => {
    expect(settingName("confluentOmit", {})).toBe("xcat:confluentOmit");
    expect(settingName("confluentOmit", MN_B)).toBe("the confluentOmit input of the provider 'mnB'");
    expect(howToSet("checkConnection", "false", {})).toBe(
      "run: pulumi config set xcat:checkConnection false",
    );
    expect(howToSet("checkConnection", "false", MN_B)).toBe(
      "set checkConnection: false on the provider 'mnB' (pulumi:providers:xcat)",
    );
    expect(howToSet("confluentOmit", "'netboot'", MN_B, { add: true })).toBe(
      "add 'netboot' to the confluentOmit input of the provider 'mnB' (pulumi:providers:xcat)",
    );
  });

  it("bad values are refused naming the explicit provider's input", () => {
    expect(() => settingsFrom(lookup({ "xcat:checkConnection": "maybe" }), {}, MN_B)).toThrow(
      /the checkConnection input of the provider 'mnB' must be true or false, got 'maybe'/,
    );
    expect(() => settingsFrom(lookup({ "xcat:nameServices": '["dns","ldap"]' }), {}, MN_B)).toThrow(
      /the nameServices input of the provider 'mnB': 'ldap' is not a name service/,
    );
    // The default provider's stay named as stack config.
    expect(() => settingsFrom(lookup({ "xcat:checkConnection": "maybe" }), {})).toThrow(
      /xcat:checkConnection must be true or false/,
    );
  });

  it("a missing URL or password says where this provider takes it", () => {
    const explicit = settingsFrom(lookup({}), {}, MN_B);
    expect(() => clientOptionsFor(undefined, explicit)).toThrow(/Give the provider 'mnB' a url/);
    expect(() => clientOptionsFor({ url: "https://mn/xcatws" }, explicit)).toThrow(
      /Give the provider 'mnB' a username and password/,
    );
    expect(() => clientOptionsFor(undefined, settingsFrom(lookup({}), {}))).toThrow(
      /pulumi config set xcat:url/,
    );
  });
});

describe("list settings", () => {
  it("take a comma list or a JSON array of names", () => {
    expect(parseList(" postscripts, netboot ,,", "x")).toEqual(["postscripts", "netboot"]);
    expect(parseList('["postscripts","netboot"]', "x")).toEqual(["postscripts", "netboot"]);
    expect(parseList(undefined, "x")).toEqual([]);
    expect(() => parseList("[1,2]", "the confluentOmit input of the provider 'mnB'")).toThrow(
      /the confluentOmit input of the provider 'mnB' must be a list of names/,
    );
  });

  it("an explicit provider's confluentOmit and nameServices arrive as the engine encodes lists", () => {
    const settings = settingsFrom(
      lookup({ "xcat:confluentOmit": '["postscripts","netboot"]', "xcat:nameServices": '["dhcp"]' }),
      {},
      MN_B,
    );
    expect(settings.confluentOmit).toEqual(["postscripts", "netboot"]);
    expect(settings.nameServices).toEqual({ hosts: false, dns: false, dhcp: true });
    expect(settings.origin).toEqual(MN_B);
  });
});

describe("the native schema", () => {
  const schema = JSON.parse(
    readFileSync(resolve(import.meta.dirname, "../../dist/native/schema.json"), "utf8"),
  ) as {
    config: { variables: Record<string, { type?: string }> };
    provider: { inputProperties: Record<string, { type?: string }> };
  };

  it("has every provider setting as stack config and as an input of pulumi:providers:xcat", () => {
    for (const { key } of PROVIDER_SETTINGS) {
      expect(schema.config.variables[key], key).toBeDefined();
      expect(schema.provider.inputProperties[key], key).toBeDefined();
    }
    expect(schema.provider.inputProperties.confluentOmit?.type).toBe("array");
    expect(schema.provider.inputProperties.nameServices?.type).toBe("array");
  });
});
