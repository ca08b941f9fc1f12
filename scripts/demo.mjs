#!/usr/bin/env node
// `npm run demo`: the lab cluster (examples/lab, the root Pulumi.yaml program) applied with the
// real Pulumi engine to the xCAT emulator, then drift detection: a hand edit on the "management
// node", `pulumi preview --refresh --diff` showing exactly that change, and `pulumi up` putting
// it back.
//
// Started by scripts/with-toolchain.sh, so node, the built package and `pulumi` are on PATH.
// Each run starts afresh: the demo's state (Pulumi backend and emulator data) lives in
// .pulumi-state/ and is recreated. Options:
//   --racks N --nodes-per-rack N --vms N   cluster size (default 2 x 16, 4 VMs)
//   --keep-emulator                        leave the emulator running at the end (Ctrl-C stops it)
//   --destroy                              end with `pulumi destroy --yes`, as a CI job tears its lab down
//   --screenshot FILE                      a PNG of the rack view's page mid-deploy, by headless Chromium
//                                          (docs/images/view-demo-mid-deploy.png is made so; nodes boot
//                                          in 60 s instead of 4 so the picture catches the roll)
// The rack view (`pulumi-xcat view`, docs/view.md) runs beside the lab on 127.0.0.1 from the stack's
// creation to the end; its address is printed then.
// PULUMI_XCAT_DEMO_STATE=<dir> puts the state elsewhere and PULUMI_XCAT_DEMO_STACK=<name> names
// the stack (default "demo"; its config file is Pulumi.<name>.yaml at the root, ignored by git).
import { execFile, spawn, spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const { XcatClient } = require(join(repoRoot, "dist/client/index.js"));
const { EMULATOR_DEFAULT_PASSWORD, EMULATOR_DEFAULT_USER } = require(
  join(repoRoot, "dist/emulator/index.js"),
);

const { values: args } = parseArgs({
  options: {
    racks: { type: "string", default: "2" },
    "nodes-per-rack": { type: "string", default: "16" },
    vms: { type: "string", default: "4" },
    "keep-emulator": { type: "boolean", default: false },
    destroy: { type: "boolean", default: false },
    screenshot: { type: "string" },
  },
});

const stateDir = resolve(process.env.PULUMI_XCAT_DEMO_STATE ?? join(repoRoot, ".pulumi-state"));
const stack = process.env.PULUMI_XCAT_DEMO_STACK ?? "demo";
// Demo data only; scripts/demo-pulumi.sh (npm run pulumi) uses the same passphrase.
const passphrase = "pulumi-xcat-demo";
// The emulator CLI below runs with its default account.
const account = { username: EMULATOR_DEFAULT_USER, password: EMULATOR_DEFAULT_PASSWORD };
const preferredPort = 18443;

const env = {
  ...process.env,
  PULUMI_BACKEND_URL: `file://${stateDir}`,
  PULUMI_CONFIG_PASSPHRASE: passphrase,
  PULUMI_SKIP_UPDATE_CHECK: "true",
  PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
};

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)}s`;
function step(title) {
  console.log(`\n\x1b[1m==> ${title}\x1b[0m  [${elapsed()}]`);
}

function pulumi(pulumiArgs, { capture = false } = {}) {
  const result = spawnSync("pulumi", pulumiArgs, {
    cwd: repoRoot,
    env,
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
    encoding: "utf8",
  });
  if (result.status !== 0) {
    throw new Error(`'pulumi ${pulumiArgs.join(" ")}' failed (exit ${result.status ?? result.signal})`);
  }
  return result.stdout ?? "";
}

/** Starts the emulator CLI and resolves with its base URL (the first line it prints). */
function startEmulator(port) {
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, "dist/emulator/cli.js"),
      "--port",
      String(port),
      "--data",
      join(stateDir, "xcat-emulator.sqlite"),
      "--seed",
      "7",
      // The compute nodes boot their image in seconds here, not the minutes of real hardware.
      "--boot-seconds",
      args.screenshot ? "60" : "4",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolvePromise, reject) => {
    let buffered = "";
    let errors = "";
    child.stderr.on("data", (chunk) => {
      errors += chunk;
    });
    child.stdout.on("data", (chunk) => {
      buffered += chunk;
      const match = /^xcat-emulator listening on (\S+)/m.exec(buffered);
      if (match) resolvePromise({ child, url: match[1] });
    });
    child.on("exit", (code) =>
      reject(new Error(`the emulator exited (code ${code}) before it was ready: ${errors.trim()}`)),
    );
  });
}

/** `pulumi …` without blocking this process, so the screenshot can be taken while it runs. */
function pulumiAsync(pulumiArgs) {
  const child = spawn("pulumi", pulumiArgs, { cwd: repoRoot, env, stdio: "inherit" });
  return new Promise((resolvePromise, reject) => {
    child.on("exit", (code, signal) =>
      code === 0
        ? resolvePromise()
        : reject(new Error(`'pulumi ${pulumiArgs.join(" ")}' failed (exit ${code ?? signal})`)),
    );
  });
}

/** Starts `pulumi-xcat view` on the demo stack and resolves with it and its page's address. */
function startView() {
  const child = spawn(
    process.execPath,
    [join(repoRoot, "dist/cli/main.js"), "view", "--stack", stack, "--interval", "5"],
    { cwd: repoRoot, env, stdio: ["ignore", "ignore", "pipe"] },
  );
  return new Promise((resolvePromise, reject) => {
    let said = "";
    child.stderr.on("data", (chunk) => {
      said += chunk;
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(said);
      if (match) resolvePromise({ child, url: match[1] });
    });
    child.on("exit", (code) => reject(new Error(`the view exited (code ${code}): ${said.trim()}`)));
  });
}

/**
 * Waits until the view draws a compute node booted (the canary) and three deploying, then has headless
 * Chromium load the page itself (its script fetches the drawing; --virtual-time-budget lets it)
 * and write FILE.
 */
async function screenshotMidDeploy(viewUrl, file, upDone) {
  const { findChromium, chromiumFlags } = require(join(repoRoot, "dist/cli/view/chromium.js"));
  const chromium = await findChromium();
  for (;;) {
    const { svg = "" } = await fetch(`${viewUrl}api/view`).then((response) => response.json());
    const booted = (svg.match(/class="node"[^>]*data-state="booted"/g) ?? []).length;
    const deploying = (svg.match(/class="node"[^>]*data-state="deploying"/g) ?? []).length;
    if (booted >= 1 && deploying >= 3) break;
    if (upDone())
      throw new Error("the up ended before the view drew a node booted and three deploying: no screenshot");
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 1000));
  }
  await new Promise((resolvePromise, reject) =>
    execFile(
      chromium,
      [
        ...chromiumFlags(),
        `--screenshot=${resolve(file)}`,
        "--window-size=1600,1100",
        "--virtual-time-budget=10000",
        viewUrl,
      ],
      { timeout: 300_000 },
      (error) => (error ? reject(error) : resolvePromise()),
    ),
  );
  console.log(`[screenshot] the rack view mid-deploy: ${file}`);
}

let emulator;
let view;
try {
  step(`Starting afresh: demo state in ${stateDir}`);
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(join(repoRoot, `Pulumi.${stack}.yaml`), { force: true });
  mkdirSync(stateDir, { recursive: true });

  step("Starting the xCAT emulator (the stand-in for a management node's REST API)");
  emulator = await startEmulator(preferredPort).catch(() => startEmulator(0));
  console.log(`xcat-emulator listening on ${emulator.url} (account ${account.username}/${account.password})`);

  step("Creating the Pulumi stack and its configuration");
  pulumi(["stack", "init", stack, "--non-interactive"]);
  pulumi(["config", "set", "xcat:url", emulator.url]);
  pulumi(["config", "set", "xcat:username", account.username]);
  pulumi(["config", "set", "--secret", "xcat:password", account.password]);
  pulumi(["config", "set", "--secret", "bmcPassword", "demo-bmc-secret"]);
  pulumi(["config", "set", "racks", args.racks]);
  pulumi(["config", "set", "nodesPerRack", args["nodes-per-rack"]]);
  pulumi(["config", "set", "vms", args.vms]);
  pulumi(["config", "set", "pollSeconds", "1"]);

  view = await startView();
  console.log(
    `\nThe rack view: open ${view.url} (pulumi-xcat view --stack ${stack}, 127.0.0.1 only; it stops with the demo)`,
  );

  step(
    "pulumi up: creating the lab cluster in xCAT, deploying the compute image and waiting until the racks booted",
  );
  let upEnded = false;
  const up = pulumiAsync(["up", "--yes", "--non-interactive"]).finally(() => {
    upEnded = true;
  });
  await Promise.all([
    up,
    ...(args.screenshot ? [screenshotMidDeploy(view.url, args.screenshot, () => upEnded)] : []),
  ]);

  step("pulumi refresh: recording what xCAT derived after the creates (group members, VM settings)");
  pulumi(["refresh", "--yes", "--non-interactive", "--skip-preview"]);

  const client = new XcatClient({ url: emulator.url, ...account });
  const node = "r01n01";
  const before = await client.nodes.get(node);
  step(`A hand edit on the management node: chdef ${node} ip=10.0.1.99 (PUT /xcatws/nodes/${node})`);
  await client.nodes.update(node, { ip: "10.0.1.99" });
  console.log(`${node} ip was ${before.ip}, is now ${(await client.nodes.get(node)).ip}`);

  step("pulumi preview --refresh --diff: Pulumi reads the cluster back and shows the drift");
  pulumi(["preview", "--refresh", "--diff", "--non-interactive"]);

  step("pulumi up --refresh: putting the cluster back as the program declares it");
  pulumi(["up", "--refresh", "--yes", "--non-interactive"]);
  const restored = (await client.nodes.get(node)).ip;
  console.log(`${node} ip is ${restored} again`);
  if (restored !== before.ip) throw new Error(`${node} ip is ${restored}, expected ${before.ip}`);

  const outputs = JSON.parse(pulumi(["stack", "output", "--json"], { capture: true }));
  const requests = (await client.nodes.list()).length;

  if (args.destroy) {
    step("pulumi destroy: tearing the lab down, as a CI job would");
    pulumi(["destroy", "--yes", "--non-interactive", "--skip-preview"]);
    const left = {
      nodes: await client.nodes.list(),
      groups: await client.groups.list(),
      networks: await client.networks.list(),
      osimages: await client.osimages.list(),
    };
    const count = Object.values(left).reduce((sum, names) => sum + names.length, 0);
    console.log(`xCAT now holds ${count} of the lab's objects: ${JSON.stringify(left)}`);
    if (count > 0) throw new Error("destroy left objects in xCAT");
  }
  await client.close();

  step("Done");
  console.log(
    `In ${elapsed()}: Pulumi created the lab (${outputs.nodeCount} nodes: ${JSON.stringify(outputs.nodesPerGroup)}),`,
  );
  console.log(
    `deployed ${outputs.images.netboot} on the racks (${outputs.computeBooted} compute nodes booted, ${outputs.computePoweredOn} held on),`,
  );
  console.log(
    `found a hand edit of ${node} by refreshing, showed it as a one-attribute diff, and restored it.`,
  );
  console.log(
    `xCAT now lists ${requests} nodes; images: ${outputs.images.install}, ${outputs.images.netboot}.`,
  );
  if (args.destroy) {
    console.log("Then it destroyed the lab: xCAT holds none of its objects.");
  } else {
    console.log("\nKeep exploring (the emulator keeps its data in the demo state):");
    console.log(
      `  npm run emulator -- --port ${new URL(emulator.url).port} --data ${join(stateDir, "xcat-emulator.sqlite")}`,
    );
    console.log("  then, in another shell: npm run pulumi -- stack output    # or preview, refresh, up");
    console.log("Tear it down (with the emulator running): npm run pulumi -- destroy --yes");
    if (args["keep-emulator"]) {
      console.log(`\nThe emulator keeps running at ${emulator.url}; Ctrl-C stops it.`);
      await new Promise((resolvePromise) => emulator.child.on("exit", resolvePromise));
    }
  }
} catch (error) {
  console.error(`\ndemo failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  if (view && view.child.exitCode === null) {
    view.child.kill("SIGTERM");
    await new Promise((resolvePromise) => view.child.on("exit", resolvePromise));
  }
  if (emulator && emulator.child.exitCode === null) {
    emulator.child.kill("SIGTERM");
    await new Promise((resolvePromise) => emulator.child.on("exit", resolvePromise));
  }
}
