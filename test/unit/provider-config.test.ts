import { describe, expect, it } from "vitest";
import { clientOptionsFor, settingsFrom } from "../../src/provider/config";

const lookup = (values: Record<string, string>) => (key: string) => values[key];

describe("provider configuration", () => {
  it("reads stack config, falls back to the environment, and lets stack config win", () => {
    const settings = settingsFrom(
      lookup({ "xcat:url": "https://mn1.example.org", "xcat:username": "admin" }),
      {
        XCAT_URL: "https://other.example.org/xcatws",
        XCAT_PASSWORD: "from-env",
        XCAT_BATCHING: "0",
      },
    );
    expect(settings.connection).toEqual({
      url: "https://mn1.example.org/xcatws",
      username: "admin",
      password: "from-env",
    });
    expect(settings.batching).toBe(false);
  });

  it("batching is on unless turned off", () => {
    expect(settingsFrom(lookup({}), {}).batching).toBe(true);
    expect(settingsFrom(lookup({ "xcat:batching": "false" }), {}).batching).toBe(false);
  });

  it("explains a missing URL and missing credentials, naming the keys to set", () => {
    const settings = settingsFrom(lookup({}), {});
    expect(() => clientOptionsFor(undefined, settings)).toThrow(/pulumi config set xcat:url .*XCAT_URL/);
    expect(() => clientOptionsFor({ url: "https://mn/xcatws" }, settings)).toThrow(
      /no credentials for https:\/\/mn\/xcatws.*xcat:password/,
    );
  });

  it("rejects malformed values with the key's name", () => {
    expect(() => settingsFrom(lookup({ "xcat:url": "mn.example.org" }), {})).toThrow(/xcat:url/);
    expect(() => settingsFrom(lookup({ "xcat:url": "https://mn", "xcat:insecure": "maybe" }), {})).toThrow(
      /xcat:insecure must be true or false/,
    );
    expect(() => settingsFrom(lookup({ "xcat:maxConcurrency": "0" }), {})).toThrow(/xcat:maxConcurrency/);
  });

  it("maps retries and limits onto client options; a token alone is enough", () => {
    const settings = settingsFrom(lookup({ "xcat:maxRetries": "2", "xcat:requestTimeoutMs": "5000" }), {});
    expect(clientOptionsFor({ url: "https://mn/xcatws", token: "t" }, settings)).toEqual({
      url: "https://mn/xcatws",
      token: "t",
      requestTimeoutMs: 5000,
      retry: { attempts: 3 },
      logger: { warn: expect.any(Function) },
    });
  });
});
