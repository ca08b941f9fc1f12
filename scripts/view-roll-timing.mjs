#!/usr/bin/env node
// `npm run view-roll-timing`: does `pulumi-xcat view` slow a roll? (issue #39: a 200-node roll's
// wall time with the view open within 5% of without). Not part of `npm test`: it takes many minutes.
//
// The lab (examples/lab, the root Pulumi.yaml) on the xCAT emulator with xCAT's cost model on
// (`--cost-model xcat`: each request costs the emulated management node what a real one spends,
// docs/large-stacks.md), through the real engine: one `up` creates the racks and deploys the first
// image (not timed), then RUNS image rolls of every compute node alternate between the two images
// (`computeOs` rhels9.5 <-> rhels9.4), the view open (`pulumi-xcat view`, default 5 s tick, reading
// the same emulator and the stack's state) on every other one, starting with the view. Prints each
// roll's wall time, the view's ticks, the load average before and after, then the means.
//
// Options: --racks N --nodes-per-rack N (default 10 x 20 = 200 compute nodes), --runs N (default 6),
// --boot-seconds S (default 20). The state and the emulator's data live in a temporary directory,
// removed at the end (no destroy: nothing outlives the emulator).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: args } = parseArgs({
  options: {
    racks: { type: "string", default: "10" },
    "nodes-per-rack": { type: "string", default: "20" },
    runs: { type: "string", default: "6" },
    "boot-seconds": { type: "string", default: "20" },
  },
});

const stateDir = mkdtempSync(join(tmpdir(), "view-roll-"));
const stack = `viewroll${process.pid}`;
const env = {
  ...process.env,
  PULUMI_BACKEND_URL: `file://${stateDir}`,
  PULUMI_CONFIG_PASSPHRASE: "view-roll-timing",
  PULUMI_SKIP_UPDATE_CHECK: "true",
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
};
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");

function pulumi(pulumiArgs) {
  const result = spawnSync("pulumi", [...pulumiArgs, "--stack", stack, "--non-interactive"], {
    cwd: repoRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(
      `'pulumi ${pulumiArgs.join(" ")}' failed: ${result.stderr || result.stdout}`.slice(0, 4000),
    );
  }
  return result.stdout;
}

/** Starts a child and resolves with it once a line of its output matches `ready`. */
function startUntil(command, commandArgs, ready) {
  const child = spawn(command, commandArgs, { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolvePromise, reject) => {
    let seen = "";
    const onData = (chunk) => {
      seen += chunk;
      const match = ready.exec(seen);
      if (match) resolvePromise({ child, match, output: () => seen });
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.on("exit", (code) => reject(new Error(`${command} exited (${code}) before it was ready: ${seen}`)));
  });
}

async function stop(child) {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((resolvePromise) => child.on("exit", resolvePromise));
}

let emulator;
try {
  const racks = Number(args.racks);
  const perRack = Number(args["nodes-per-rack"]);
  console.log(`${racks * perRack} compute nodes, ${args.runs} rolls, load average ${load()}`);
  emulator = await startUntil(
    process.execPath,
    [
      join(repoRoot, "dist/emulator/cli.js"),
      "--port",
      "0",
      "--data",
      join(stateDir, "xcat-emulator.sqlite"),
      "--cost-model",
      "xcat",
      "--boot-seconds",
      args["boot-seconds"],
    ],
    /xcat-emulator listening on (\S+)/,
  );
  const url = emulator.match[1];
  pulumi(["stack", "init"]);
  for (const [key, value, secret] of [
    ["xcat:url", url],
    ["xcat:username", "root"],
    ["xcat:password", "emu-Qx7k2Vw9", true],
    ["bmcPassword", "view-roll-bmc", true],
    ["racks", String(racks)],
    ["nodesPerRack", String(perRack)],
    ["vms", "0"],
    ["pollSeconds", "2"],
    ["computeOs", "rhels9.4"],
  ]) {
    pulumi(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
  }
  let started = Date.now();
  pulumi(["up", "--yes", "--skip-preview"]);
  console.log(
    `first up (creates and deploys rhels9.4, not timed): ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );

  const results = [];
  for (let run = 0; run < Number(args.runs); run++) {
    const withView = run % 2 === 0;
    const os = run % 2 === 0 ? "rhels9.5" : "rhels9.4";
    pulumi(["config", "set", "computeOs", os]);
    const view = withView
      ? await startUntil(
          process.execPath,
          [join(repoRoot, "dist/cli/main.js"), "view", "--stack", stack],
          /open (http:\/\/127\.0\.0\.1:\d+\/)/,
        )
      : undefined;
    const before = load();
    started = Date.now();
    pulumi(["up", "--yes", "--skip-preview"]);
    const seconds = (Date.now() - started) / 1000;
    let ticks = "";
    if (view) {
      const answer = await fetch(`${view.match[1]}api/view`).then((response) => response.json());
      ticks = `, view ticks ${answer.tick}`;
      await stop(view.child);
    }
    results.push({ withView, seconds });
    console.log(
      `roll ${run + 1} to ${os} ${withView ? "with" : "without"} the view: ${seconds.toFixed(1)} s${ticks} (load before ${before}, after ${load()})`,
    );
  }
  const mean = (list) => list.reduce((sum, r) => sum + r.seconds, 0) / list.length;
  const withMean = mean(results.filter((r) => r.withView));
  const withoutMean = mean(results.filter((r) => !r.withView));
  console.log(
    `mean with the view ${withMean.toFixed(1)} s, without ${withoutMean.toFixed(1)} s: ${(((withMean - withoutMean) / withoutMean) * 100).toFixed(1)}%`,
  );
} catch (error) {
  console.error(`view-roll-timing failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  if (emulator) await stop(emulator.child);
  rmSync(join(repoRoot, `Pulumi.${stack}.yaml`), { force: true });
  rmSync(stateDir, { recursive: true, force: true });
}
