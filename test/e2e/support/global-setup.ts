/**
 * Vitest global setup for the e2e tests: packs this package with `npm pack` and installs the
 * tarball into a sandbox directory, as a user's program would get it. Programs under test are
 * copied below the sandbox, so Node resolves `pulumi-xcat` and `@pulumi/pulumi` from there.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, "../../..");

declare module "vitest" {
  export interface ProvidedContext {
    /** Directory whose node_modules holds the packed pulumi-xcat and its peers. */
    e2eSandbox: string;
  }
}

async function requirePulumiOnPath(expectedVersion: string): Promise<void> {
  let version: string;
  try {
    version = (await run("pulumi", ["version"])).stdout.trim();
  } catch {
    throw new Error(
      "The e2e tests need the `pulumi` CLI on PATH. Run them through `npm test`, which sets up the " +
        `toolchain (Node, npm dependencies, Pulumi v${expectedVersion}), or put pulumi v${expectedVersion} on PATH.`,
    );
  }
  if (version !== `v${expectedVersion}`) {
    throw new Error(
      `pulumi on PATH is ${version}, but @pulumi/pulumi is ${expectedVersion}. Run the tests through ` +
        "`npm test`, which builds a matching CLI, or put a matching one first on PATH.",
    );
  }
}

async function installedVersion(pkg: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repoRoot, "node_modules", pkg, "package.json"), "utf8"));
  return manifest.version as string;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sdkVersion = await installedVersion("@pulumi/pulumi");
  await requirePulumiOnPath(sdkVersion);

  const sandbox = await mkdtemp(join(tmpdir(), "pulumi-xcat-e2e-"));
  // `npm pack` runs the `prepare` script, so the tarball holds a fresh build of src/. `npm test`
  // (package.json's test:all) has just built it before vitest starts and says so with
  // PULUMI_XCAT_E2E_PREBUILT=1: packing that build as it is saves the build's second run (25 s of
  // CPU, docs/e2e-time.md).
  const prebuilt = process.env.PULUMI_XCAT_E2E_PREBUILT === "1" ? ["--ignore-scripts"] : [];
  const packed = await run(
    "npm",
    ["pack", "--json", "--loglevel=error", ...prebuilt, "--pack-destination", sandbox],
    { cwd: repoRoot },
  );
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];

  const manifest = {
    name: "pulumi-xcat-e2e-sandbox",
    private: true,
    dependencies: {
      "pulumi-xcat": `file:./${filename}`,
      "@pulumi/pulumi": sdkVersion,
      typescript: await installedVersion("typescript"),
    },
  };
  await writeFile(join(sandbox, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: sandbox,
  });
  await mkdir(join(sandbox, "programs"), { recursive: true });

  project.provide("e2eSandbox", sandbox);
  return async () => {
    if (process.env.PULUMI_XCAT_KEEP_E2E !== "1") await rm(sandbox, { recursive: true, force: true });
  };
}
