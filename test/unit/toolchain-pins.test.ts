/**
 * The Pulumi CLI is built from tools/pulumi-cli and must match the @pulumi/pulumi the package is
 * tested with (the bootstrap refuses to build a mismatched one); this catches a bump of one pin
 * without the other before anything slow runs.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(resolve(repoRoot, path), "utf8");

describe("toolchain pins", () => {
  it("tools/pulumi-cli builds the CLI at the version of the pinned @pulumi/pulumi", () => {
    const sdkPin = JSON.parse(read("package.json")).devDependencies["@pulumi/pulumi"];
    expect(sdkPin).toMatch(/^\d+\.\d+\.\d+$/); // an exact pin, not a range
    const goMod = read("tools/pulumi-cli/go.mod");
    expect(goMod).toMatch(
      new RegExp(`github\\.com/pulumi/pulumi/pkg/v3 v${sdkPin.replaceAll(".", "\\.")}\\b`),
    );
    expect(goMod).toMatch(
      new RegExp(`github\\.com/pulumi/pulumi/sdk/v3 v${sdkPin.replaceAll(".", "\\.")}\\b`),
    );
  });

  it("users get @pulumi/pulumi as a peer range that includes the tested version", () => {
    const manifest = JSON.parse(read("package.json"));
    expect(manifest.peerDependencies["@pulumi/pulumi"]).toBe(">=3.216.0");
    expect(manifest.dependencies["@pulumi/pulumi"]).toBeUndefined();
  });
});
