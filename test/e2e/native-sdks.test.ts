/**
 * The native provider's Python, Go and Node.js SDKs, generated from the schema the build wrote
 * (dist/native/schema.json) by tools/sdkgen with Pulumi's own code generators: the schema binds
 * (validates against Pulumi's metaschema), the Python SDK and examples/lab-python byte-compile,
 * the Go SDK builds, and the Node.js SDK is the one committed in sdk/nodejs, which the package
 * ships as `pulumi-xcat/native` (a stale copy fails here: `npm run native-sdk` regenerates it). tools/check-sdks.sh caches sdkgen and Go's caches, so a warm run takes
 * seconds. Python programs cannot run here (no Python language host or `pulumi` package).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, "../..");
const out = mkdtempSync(join(tmpdir(), "pulumi-xcat-sdks-"));

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("SDKs generated from the native provider's schema", () => {
  it("the schema validates, the Python SDK byte-compiles, the Go SDK builds and sdk/nodejs is current", async () => {
    const schema = join(repoRoot, "dist/native/schema.json");
    const { stderr } = await run("bash", [join(repoRoot, "tools/check-sdks.sh"), schema, out], {
      maxBuffer: 16 * 1024 * 1024,
    });
    expect(stderr).toMatch(/python: \d+ files byte-compile/);
    expect(stderr).toContain("go: the SDK builds");
    expect(stderr).toContain("nodejs: sdk/nodejs is what the schema generates");

    // Secrets reach the SDKs: a password attribute map and the connection are secret outputs.
    const nodePy = readFileSync(join(out, "python/pulumi_xcat/node.py"), "utf8");
    expect(nodePy).toMatch(/additional_secret_outputs=\[[^\]]*"connection"[^\]]*"secretAttributes"/);
    expect(existsSync(join(out, "python/pulumi_xcat/deployment.py"))).toBe(true);
    const nodeGo = readFileSync(join(out, "go/xcat/node.go"), "utf8");
    expect(nodeGo).toContain('"xcat:index:Node"');
    const nodeTs = readFileSync(join(out, "nodejs/node.ts"), "utf8");
    expect(nodeTs).toMatch(/additionalSecretOutputs: \["connection", "secretAttributes"\]/);
  }, 900_000);
});
