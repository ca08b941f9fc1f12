/**
 * Issue 8, item 5, for the provider's own settings: a bad value in stack config (or its
 * XCAT_* environment fallback) is refused with a message naming the key and what it must be,
 * and valid log levels give the client a logger for retries (`info`) and exchanges (`debug`).
 */
import { describe, expect, it } from "vitest";
import { clientOptionsFor, settingsFrom } from "../../src/provider/config";

const lookup = (values: Record<string, string>) => (key: string) => values[key];

describe("bad provider settings name the key and the expected value", () => {
  it.each([
    [{ "xcat:url": "mn.example.org" }, /xcat:url/],
    [{ "xcat:url": "ftp://mn.example.org" }, /xcat:url: url must be http:\/\/ or https:\/\//],
    [{ "xcat:url": "https://root:pw@mn.example.org" }, /xcat:url: url must not contain credentials/],
    [
      { "xcat:url": "https://mn", "xcat:insecure": "maybe" },
      /xcat:insecure must be true or false, got 'maybe'/,
    ],
    [{ "xcat:maxRetries": "-1" }, /xcat:maxRetries must be a whole number, got '-1'/],
    [{ "xcat:maxConcurrency": "0" }, /xcat:maxConcurrency must be a whole number above 0, got '0'/],
    [{ "xcat:requestTimeoutMs": "soon" }, /xcat:requestTimeoutMs must be a whole number above 0/],
    [{ "xcat:batching": "sometimes" }, /xcat:batching must be true or false/],
    [{ "xcat:logLevel": "verbose" }, /xcat:logLevel must be warn, info or debug, got 'verbose'/],
  ])("%o", (config, message) => {
    expect(() => settingsFrom(lookup(config), {})).toThrow(message);
  });

  it("an unreadable caCert file is named where it was set", () => {
    const settings = settingsFrom(lookup({}), {});
    expect(() =>
      clientOptionsFor({ url: "https://mn/xcatws", token: "t", caCert: "/nonexistent/ca.pem" }, settings),
    ).toThrow(/connection\.caCert is neither PEM text nor a readable file: \/nonexistent\/ca\.pem/);
    const fromStack = settingsFrom(
      lookup({ "xcat:url": "https://mn", "xcat:token": "t", "xcat:caCert": "/nonexistent/ca.pem" }),
      {},
    );
    expect(() => clientOptionsFor(fromStack.connection, fromStack)).toThrow(
      /xcat:caCert is neither PEM text nor a readable file/,
    );
  });

  it("the environment fallback is checked the same way", () => {
    expect(() => settingsFrom(lookup({}), { XCAT_LOG_LEVEL: "loud" })).toThrow(/xcat:logLevel/);
  });

  it("every level gives the client a logger for warnings; info and debug add their lines", () => {
    const options = (level?: string) =>
      clientOptionsFor(
        { url: "https://mn/xcatws", token: "t" },
        settingsFrom(lookup(level ? { "xcat:logLevel": level } : {}), {}),
      );
    // Warnings go where the provider's lines go (provider-lines.ts), at every level.
    expect(options().logger?.warn).toBeTypeOf("function");
    expect(options().logger?.info).toBeUndefined();
    expect(options("warn").logger?.info).toBeUndefined();
    expect(options("info").logger?.info).toBeTypeOf("function");
    expect(options("info").logger?.debug).toBeUndefined();
    expect(options("DEBUG").logger?.debug).toBeTypeOf("function");
  });
});
