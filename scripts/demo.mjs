#!/usr/bin/env node
// `npm run demo`: runs the repository's Pulumi program (Pulumi.yaml at the root) with the real
// Pulumi engine against a local file backend, and says what happened.
//
// Until the lab cluster lands, the program is the toolchain smoke program (examples/smoke): one
// diagnostic xcat:Echo resource served by this package's dynamic provider. No xCAT is contacted.
//
// Started by scripts/with-toolchain.sh, so node, npm dependencies and `pulumi` are on PATH.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const stateDir = join(repoRoot, ".pulumi-state");
const stack = "demo";
// The demo's secrets are demo data; a fixed passphrase lets `npm run pulumi` work afterwards
// (scripts/demo-pulumi.sh uses the same one).
const passphrase = "pulumi-xcat-demo";

const env = {
  ...process.env,
  PULUMI_BACKEND_URL: `file://${stateDir}`,
  PULUMI_CONFIG_PASSPHRASE: passphrase,
  PULUMI_SKIP_UPDATE_CHECK: "true",
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
};

function step(title) {
  console.log(`\n==> ${title}`);
}

function pulumi(args, { capture = false } = {}) {
  const result = spawnSync("pulumi", args, {
    cwd: repoRoot,
    env,
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
  });
  if (result.status !== 0) {
    console.error(`\ndemo: 'pulumi ${args.join(" ")}' failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
  return result.stdout ?? "";
}

mkdirSync(stateDir, { recursive: true });

step(`Using a local Pulumi backend in ${stateDir} (stack '${stack}')`);
pulumi(["stack", "select", "--create", stack, "--non-interactive"]);
pulumi(["config", "set", "message", "hello from the pulumi-xcat demo"]);

step("pulumi up: the engine runs the program and creates its resources");
pulumi(["up", "--yes", "--non-interactive"]);

step("pulumi preview: a second look finds nothing to change");
pulumi(["preview", "--non-interactive", "--expect-no-changes"]);

const outputs = JSON.parse(pulumi(["stack", "output", "--json"], { capture: true }));
step("Done");
console.log(`The program ran on the real Pulumi engine (${pulumi(["version"], { capture: true }).trim()}).`);
console.log(`Stack outputs: ${JSON.stringify(outputs)}`);
console.log("This demo currently runs the toolchain smoke program (examples/smoke); the lab cluster");
console.log("against the xCAT emulator replaces it as the project grows.");
console.log("\nTo look around or tear it down (same backend, same toolchain):");
console.log("  npm run pulumi -- stack output");
console.log("  npm run pulumi -- destroy --yes");
