/**
 * Issue 8, item 7: a management node serving HTTPS with a certificate the system does not trust
 * (the emulator's self-signed one, as xCAT's own CA-signed certificate would be). Without a CA
 * and without `insecure`, the run fails with a message saying how to fix it; with `xcat:caCert`
 * (PEM text or a file path) it succeeds; with `xcat:insecure true` it succeeds and warns, once.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../../src/emulator";
import type { PulumiWorkspace } from "../support/pulumi-workspace";
import {
  diagnosticsOf,
  expectEmulatorMatches,
  expectedScaleNodes,
  outputOf,
  REST_PASSWORD,
  scaleWorkspace,
} from "./support";

const INSECURE_WARNING = "TLS certificate verification is disabled";

describe("HTTPS with a certificate the system does not trust", () => {
  let emulator: RunningEmulator;
  let workspace: PulumiWorkspace;
  let caPem: string;

  beforeAll(async () => {
    emulator = await startEmulator({ password: REST_PASSWORD, https: true });
    expect(emulator.url).toMatch(/^https:/);
    caPem = emulator.caCertPem ?? "";
    expect(caPem).toContain("-----BEGIN CERTIFICATE-----");
    workspace = await scaleWorkspace(emulator, { nodeCount: 2 });
  });

  afterAll(async () => {
    await workspace?.dispose();
    await emulator?.close();
  });

  it("without caCert or insecure: fails, saying how to fix it", async () => {
    const up = await workspace.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const output = outputOf(up);
    expect(up.exitCode).not.toBe(0);
    expect(output).toMatch(/TLS certificate could not be verified/);
    // ...and how to fix it, in the terms of a Pulumi stack.
    expect(output).toMatch(/pulumi config set xcat:caCert <PEM file or text> \(or xcat:insecure true\)/);
    expect(output).not.toMatch(/^.*\s+at .+:\d+:\d+\)?$/m);
    expect(emulator.state.listObjects("node")).toEqual([]);
  });

  it("with xcat:caCert as PEM text: succeeds", async () => {
    // key=value form: a value starting with "-----" would otherwise be read as a flag.
    await workspace.run(["config", "set-all", "--plaintext", `xcat:caCert=${caPem}`]);
    expect(await workspace.up()).toEqual({ create: 2, same: 1 }); // the stack exists since the failed run
    expectEmulatorMatches(emulator, expectedScaleNodes(2));
  });

  it("with xcat:caCert as a file path: succeeds, reads included", async () => {
    const file = join(workspace.workDir, "xcat-ca.pem");
    await writeFile(file, caPem);
    await workspace.setConfigs({ "xcat:caCert": file, nodeCount: "3" });
    expect(await workspace.up(["--refresh"])).toEqual({ create: 1, same: 3 });
    expectEmulatorMatches(emulator, expectedScaleNodes(3));
  });

  it("with xcat:insecure true: succeeds and warns once", async () => {
    await workspace.run(["config", "rm", "xcat:caCert"]);
    await workspace.setConfigs({ "xcat:insecure": "true", nodeCount: "5" });
    const up = await workspace.run(["up", "--yes", "--skip-preview", "--refresh"]);
    expect(await workspace.lastChanges()).toEqual({ create: 2, same: 4 });
    expectEmulatorMatches(emulator, expectedScaleNodes(5));
    const warnings = diagnosticsOf(up).split(INSECURE_WARNING).length - 1;
    expect(warnings, diagnosticsOf(up)).toBe(1);
    expect(outputOf(up)).toContain(INSECURE_WARNING);
  });
});
