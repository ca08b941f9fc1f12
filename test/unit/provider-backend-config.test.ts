/** The backend as configuration: xcat:backend / XCAT_BACKEND / connection.backend, and xcat:confluentOmit. */
import { describe, expect, it } from "vitest";
import { backendOf } from "../../src/provider/by-backend";
import { settingsFrom } from "../../src/provider/config";
import { configureProcess, resetProcessContext } from "../../src/provider/process-context";
import { connectionProblems } from "../../src/provider/validation";

describe("choosing the backend", () => {
  it("defaults to xcat, and a Confluent URL without a path gets /confluent-api", () => {
    expect(settingsFrom((key) => ({ "xcat:url": "https://mn" })[key], {}).connection).toEqual({
      url: "https://mn/xcatws",
    });
    const confluent = settingsFrom(() => undefined, { XCAT_BACKEND: "confluent", XCAT_URL: "https://mgt" });
    expect(confluent.connection).toEqual({ url: "https://mgt/confluent-api", backend: "confluent" });
  });

  it("refuses a backend it does not know, naming the setting", () => {
    expect(() => settingsFrom((key) => ({ "xcat:backend": "warewulf" })[key], {})).toThrow(
      /xcat:backend must be xcat or confluent, got 'warewulf'/,
    );
    expect(connectionProblems({ url: "https://x", backend: "slurm" })).toEqual([
      'connection.backend must be "xcat" or "confluent", got \'slurm\'',
    ]);
  });

  it("splits xcat:confluentOmit into attribute names", () => {
    const settings = settingsFrom((key) => ({ "xcat:confluentOmit": " postscripts, netboot ,," })[key], {});
    expect(settings.confluentOmit).toEqual(["postscripts", "netboot"]);
  });

  it("takes a resource's connection.backend before the stack's", async () => {
    await resetProcessContext();
    configureProcess((key) => ({ "xcat:backend": "confluent", "xcat:url": "https://mgt" })[key]);
    expect(backendOf({ name: "n1" })).toBe("confluent");
    expect(backendOf({ connection: { url: "https://mn/xcatws", backend: "xcat" } })).toBe("xcat");
    await resetProcessContext();
    expect(backendOf({ name: "n1" })).toBe("xcat");
  });
});
