/**
 * Outputs hold what the server holds (issue #27 item 2): five nodes created in a group whose ip
 * and bmc are regex values each record their own expansion in `allAttributes`, through the real
 * engine. Runs against the emulator, or against a real management node when XCAT_E2E_URL,
 * XCAT_E2E_USERNAME, XCAT_E2E_PASSWORD (and XCAT_E2E_CA_CERT) are set (see docs/import.md).
 */
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient, type XcatClientOptions } from "../../src/client";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const real = process.env.XCAT_E2E_URL;
// On a shared real management node, names no other suite uses.
const RACK = real ? 93 : 3;
const NODES = [1, 2, 3, 4, 5].map((n) => `r${String(RACK).padStart(2, "0")}n0${n}`);

describe(`each created node's allAttributes holds its own regex values (${real ? "real xCAT" : "emulator"})`, () => {
  let emulator: RunningEmulator | undefined;
  let admin: XcatClient;
  let workspace: PulumiWorkspace;

  beforeAll(async () => {
    let connection: XcatClientOptions;
    if (real) {
      connection = {
        url: real,
        username: process.env.XCAT_E2E_USERNAME ?? "",
        password: process.env.XCAT_E2E_PASSWORD ?? "",
        ...(process.env.XCAT_E2E_CA_CERT ? { caCert: process.env.XCAT_E2E_CA_CERT } : {}),
      };
    } else {
      emulator = await startEmulator({ password: "regex-e2e" });
      connection = { url: emulator.url, username: "root", password: "regex-e2e" };
    }
    admin = new XcatClient(connection);
    workspace = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "../../examples/regex-group"),
      sandboxDir: inject("e2eSandbox"),
    });
    await workspace.setConfigs(
      {
        rack: `regexrack${RACK}`,
        prefix: `r${String(RACK).padStart(2, "0")}n`,
        "xcat:url": connection.url,
        "xcat:username": connection.username ?? "",
        ...(connection.caCert ? { "xcat:caCert": connection.caCert } : {}),
      },
      { "xcat:password": connection.password ?? "" },
    );
  });

  afterAll(async () => {
    // On a shared management node the nodes go; an emulator goes with the test.
    if (workspace && real) await workspace.destroy().catch(() => undefined);
    await workspace?.dispose();
    await admin?.close();
    await emulator?.close();
  });

  it("up records, for every node, the ip and bmc the server holds for it", async () => {
    await workspace.up();
    const { reported } = (await workspace.outputs()) as {
      reported: Record<string, { ip: string; bmc: string }>;
    };
    const held = await admin.nodes.getMany(NODES);
    expect(Object.keys(reported).sort()).toEqual(NODES);
    for (const [i, name] of NODES.entries()) {
      expect(reported[name]).toEqual({ ip: held.get(name)?.ip, bmc: held.get(name)?.bmc });
      expect(reported[name]?.ip).toBe(`10.3.${RACK}.${i + 1}`);
      expect(reported[name]?.bmc).toBe(`10.13.${RACK}.${i + 1}`);
    }
  });

  it("the next preview has no changes", async () => {
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });
});
