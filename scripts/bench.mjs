#!/usr/bin/env node
/**
 * npm run bench [-- --nodes N] [--rounds R] [--parallel P] [--checkpoints] [--cost-model xcat]
 *                  [--variants floor,batched,unbatched] [--env KEY=VALUE ...] [--keep] [--profile-dir DIR]
 *
 * Runs `pulumi up`, `pulumi preview` (no changes), `pulumi refresh` and `pulumi destroy` on a
 * stack of N nodes plus a network, a group, an OS image and a site attribute, for three variants
 * with the same engine settings:
 *   floor      the same program shape on a dynamic provider that does no I/O (the engine's cost);
 *   batched    pulumi-xcat against the emulator, read batching on (the default);
 *   unbatched  pulumi-xcat with XCAT_BATCHING=0.
 * Each xcat variant gets its own in-process emulator, which counts the HTTP requests (token
 * requests included). The variants run interleaved, operation by operation, so that load from
 * other processes on the machine spreads over all of them. Peak memory is the VmHWM of the
 * dynamic-provider process, sampled from /proc. Each round is one whole life cycle per variant;
 * the table shows the median of R rounds (default 3). The engine runs with
 * PULUMI_SKIP_CHECKPOINTS=true unless --checkpoints is given (see docs/large-stacks.md).
 *
 * The last line on stdout is
 *   bench: nodes=N up_ratio=X refresh_ratio=Y refresh_requests_per_node=Z preview_requests=W
 * where the ratios are the batched variant's wall time over the floor's. A no-change preview must
 * send at most 1 request (the token request that proves the connection), or the bench exits 1.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FLOOR_PROGRAM, XCAT_PROGRAM } from "../bench/programs.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const options = {
    nodes: 1000,
    parallel: undefined,
    variants: ["floor", "batched", "unbatched"],
    env: {},
    keep: false,
    checkpoints: false,
    rounds: 3,
    profileDir: undefined,
    costModel: "none",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--nodes") options.nodes = Number(value());
    else if (arg === "--parallel") options.parallel = Number(value());
    else if (arg === "--variants") options.variants = value().split(",");
    else if (arg === "--env") {
      const [key, ...rest] = value().split("=");
      options.env[key] = rest.join("=");
    } else if (arg === "--keep") options.keep = true;
    else if (arg === "--checkpoints") options.checkpoints = true;
    else if (arg === "--rounds") options.rounds = Number(value());
    else if (arg === "--profile-dir") options.profileDir = resolve(value());
    else if (arg === "--cost-model") options.costModel = value();
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!Number.isInteger(options.nodes) || options.nodes < 1)
    throw new Error("--nodes must be a whole number above 0");
  if (options.costModel !== "xcat" && options.costModel !== "none")
    throw new Error("--cost-model must be xcat or none");
  if (!Number.isInteger(options.rounds) || options.rounds < 1)
    throw new Error("--rounds must be a whole number above 0");
  return options;
}

/** USER_HZ, 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

const log = (line) => process.stderr.write(`[bench] ${line}\n`);

/** Parent pid of every process, from /proc. */
async function parentMap() {
  const parents = new Map();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
    } catch {}
  }
  return parents;
}

/** Pids of the dynamic-provider processes below `rootPid`. */
async function providerPids(rootPid) {
  const parents = await parentMap();
  const found = [];
  for (const pid of parents.keys()) {
    let p = pid;
    for (let hops = 0; hops < 10 && p > 1; hops++) {
      p = parents.get(p) ?? 0;
      if (p !== rootPid) continue;
      try {
        // The plugin's wrapper first runs `node -e "require.resolve(...)"`; skip that one.
        const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8");
        if (cmdline.includes("dynamic-provider") && !cmdline.includes("require.resolve")) found.push(pid);
      } catch {}
      break;
    }
  }
  return found;
}

/**
 * Samples the peak resident memory (VmHWM) and CPU time of the dynamic-provider processes below
 * `rootPid`: /proc is scanned for them once a second, and the ones found are read every 200 ms.
 */
function watchProvider(rootPid) {
  const peaks = new Map();
  const cpu = new Map();
  const pids = new Set();
  let stopped = false;
  let lastScan = Number.NEGATIVE_INFINITY;
  const sample = async () => {
    if (performance.now() - lastScan > 1_000) {
      lastScan = performance.now();
      for (const pid of await providerPids(rootPid)) pids.add(pid);
    }
    for (const pid of pids) {
      try {
        const status = await readFile(`/proc/${pid}/status`, "utf8");
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kb));
        const stat = await readFile(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
      } catch {
        pids.delete(pid);
      }
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await sample();
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    return { peakKb: Math.max(0, ...peaks.values()), cpuS: [...cpu.values()].reduce((a, b) => a + b, 0) };
  };
}

/** Copies a program into a workspace with an isolated PULUMI_HOME, file backend and stack. */
async function createWorkspace(root, name, programText, env) {
  const dir = join(root, name);
  const program = join(dir, "program");
  await mkdir(join(program, "node_modules", "@pulumi"), { recursive: true });
  await mkdir(join(dir, "home"), { recursive: true });
  await mkdir(join(dir, "state"), { recursive: true });
  await writeFile(
    join(program, "Pulumi.yaml"),
    `name: bench-${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`,
  );
  await writeFile(
    join(program, "package.json"),
    `{"name":"bench-${name}","private":true,"main":"index.js"}\n`,
  );
  await writeFile(join(program, "index.js"), programText);
  // The program resolves this checkout (built dist/) and its @pulumi/pulumi, as an install would.
  await symlink(
    join(repoRoot, "node_modules", "@pulumi", "pulumi"),
    join(program, "node_modules", "@pulumi", "pulumi"),
  );
  await symlink(repoRoot, join(program, "node_modules", "pulumi-xcat"));
  const workspace = {
    name,
    program,
    log: createWriteStream(join(dir, "pulumi.log")),
    env: {
      PULUMI_HOME: join(dir, "home"),
      PULUMI_BACKEND_URL: `file://${join(dir, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      ...env,
    },
  };
  await pulumi(workspace, ["stack", "init", "bench"]);
  return workspace;
}

/** Runs pulumi in a workspace; resolves with the wall time in ms and the provider's peak memory. */
function pulumi(workspace, args, { watch = false, env = {} } = {}) {
  const fullArgs = [...args, "--non-interactive", "--color", "never"];
  workspace.log.write(`\n$ pulumi ${fullArgs.join(" ")}\n`);
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn("pulumi", fullArgs, {
      cwd: workspace.program,
      env: { ...process.env, ...workspace.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stopWatch = watch ? watchProvider(child.pid) : async () => ({ peakKb: 0, cpuS: 0 });
    let tail = "";
    const keep = (chunk) => {
      workspace.log.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", reject);
    child.on("close", async (code) => {
      const wallMs = performance.now() - started;
      const { peakKb, cpuS } = await stopWatch();
      if (code !== 0)
        reject(new Error(`pulumi ${args.join(" ")} (${workspace.name}) exited with ${code}:\n${tail}`));
      else resolvePromise({ wallMs, peakKb, cpuS });
    });
  });
}

const OPERATIONS = [
  { id: "up", args: ["up", "--yes", "--skip-preview"] },
  { id: "preview", args: ["preview", "--expect-no-changes"] },
  { id: "refresh", args: ["refresh", "--yes", "--skip-preview"] },
  { id: "destroy", args: ["destroy", "--yes", "--skip-preview"] },
];

function table(rows, header) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padStart(widths[i])).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const { startEmulator } = require(join(repoRoot, "dist", "emulator"));
  const root = await mkdtemp(join(tmpdir(), "pulumi-xcat-bench-"));
  const parallel = options.parallel === undefined ? [] : ["--parallel", String(options.parallel)];
  // The file backend rewrites the whole checkpoint after every step, which makes `up` of N
  // resources cost O(N²) in the engine alone; by default the bench skips checkpoints (the
  // recommendation for large stacks, docs/large-stacks.md). --checkpoints keeps them.
  const common = {
    BENCH_NODES: String(options.nodes),
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...(options.checkpoints ? {} : { PULUMI_SKIP_CHECKPOINTS: "true" }),
    ...options.env,
  };
  log(
    `nodes=${options.nodes} variants=${options.variants.join(",")} parallel=${options.parallel ?? "default"} env=${JSON.stringify(options.env)} dir=${root}`,
  );

  const emulators = [];
  const variants = [];
  try {
    for (const id of options.variants) {
      if (id === "floor") {
        variants.push({ id, workspace: await createWorkspace(root, id, FLOOR_PROGRAM, common) });
        continue;
      }
      if (id !== "batched" && id !== "unbatched") throw new Error(`unknown variant ${id}`);
      const emulator = await startEmulator({
        user: "root",
        password: "cluster",
        costModel: options.costModel,
      });
      emulators.push(emulator);
      const env = {
        ...common,
        XCAT_URL: emulator.url,
        XCAT_USERNAME: "root",
        XCAT_PASSWORD: "cluster",
        XCAT_BATCHING: id === "batched" ? "1" : "0",
      };
      variants.push({ id, emulator, workspace: await createWorkspace(root, id, XCAT_PROGRAM, env) });
    }

    // Each round runs the whole life cycle once per variant; the table shows the median round.
    const samples = new Map();
    for (let round = 1; round <= options.rounds; round++) {
      for (const operation of OPERATIONS) {
        for (const variant of variants) {
          const before = variant.emulator?.stats().total ?? 0;
          const emulatorCpu = process.cpuUsage();
          const profile = options.profileDir
            ? {
                NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(options.profileDir, `${variant.id}-${operation.id}`)}`,
              }
            : {};
          const { wallMs, peakKb, cpuS } = await pulumi(variant.workspace, [...operation.args, ...parallel], {
            watch: true,
            env: profile,
          });
          const used = process.cpuUsage(emulatorCpu);
          const emulatorCpuS = (used.user + used.system) / 1e6;
          const requests = variant.emulator ? variant.emulator.stats().total - before : 0;
          const key = `${variant.id}/${operation.id}`;
          samples.set(key, [...(samples.get(key) ?? []), { wallMs, peakKb, requests, cpuS, emulatorCpuS }]);
          log(
            `round ${round} ${operation.id.padEnd(8)} ${variant.id.padEnd(10)} ${(wallMs / 1000).toFixed(1)} s, ` +
              `${requests} requests, provider peak ${(peakKb / 1024).toFixed(0)} MB, provider CPU ${cpuS.toFixed(1)} s, ` +
              `bench+emulator CPU ${emulatorCpuS.toFixed(1)} s`,
          );
        }
      }
    }
    const median = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    const results = new Map();
    for (const [key, list] of samples) {
      results.set(key, {
        wallMs: median(list.map((r) => r.wallMs)),
        peakKb: Math.max(...list.map((r) => r.peakKb)),
        requests: median(list.map((r) => r.requests)),
        cpuS: median(list.map((r) => r.cpuS)),
        emulatorCpuS: median(list.map((r) => r.emulatorCpuS)),
      });
    }

    const floor = (op) => results.get(`floor/${op}`)?.wallMs;
    const rows = [];
    for (const operation of OPERATIONS) {
      for (const variant of variants) {
        const r = results.get(`${variant.id}/${operation.id}`);
        const f = floor(operation.id);
        rows.push([
          operation.id,
          variant.id,
          (r.wallMs / 1000).toFixed(1),
          f ? (r.wallMs / f).toFixed(2) : "-",
          variant.emulator ? r.requests : "-",
          variant.emulator ? (r.requests / options.nodes).toFixed(3) : "-",
          (r.peakKb / 1024).toFixed(0),
          r.cpuS.toFixed(1),
          variant.emulator ? r.emulatorCpuS.toFixed(1) : "-",
        ]);
      }
    }
    const settings = Object.entries(common)
      .filter(([key]) => key !== "BENCH_NODES")
      .map(([key, value]) => `${key}=${value}`)
      .join(" ");
    console.log(
      `pulumi-xcat bench: ${options.nodes} nodes + 4 other resources, median of ${options.rounds} round(s), parallel=${options.parallel ?? "default (4 x CPUs)"}, ${settings}`,
    );
    console.log(
      table(rows, [
        "operation",
        "variant",
        "wall s",
        "x floor",
        "requests",
        "req/node",
        "provider MB",
        "provider CPU s",
        "emulator CPU s",
      ]),
    );
    const get = (key) => results.get(key);
    const ratio = (op) =>
      get(`batched/${op}`) && floor(op) ? (get(`batched/${op}`).wallMs / floor(op)).toFixed(2) : "NaN";
    const refreshRequests = get("batched/refresh")?.requests;
    console.log(
      `bench: nodes=${options.nodes} up_ratio=${ratio("up")} refresh_ratio=${ratio("refresh")} ` +
        `refresh_requests_per_node=${refreshRequests === undefined ? "NaN" : (refreshRequests / options.nodes).toFixed(3)} ` +
        `preview_requests=${get("batched/preview")?.requests ?? "NaN"}`,
    );
    // A no-change preview proves the connection with one token request and sends nothing else.
    for (const variant of ["batched", "unbatched"]) {
      const requests = get(`${variant}/preview`)?.requests;
      if (requests !== undefined && requests > 1) {
        process.stderr.write(`[bench] ${variant} preview sent ${requests} requests; at most 1 is expected\n`);
        process.exitCode = 1;
      }
    }
  } finally {
    await Promise.all(emulators.map((e) => e.close()));
    if (!options.keep) await rm(root, { recursive: true, force: true });
    else log(`kept ${root}`);
  }
}

main().catch((error) => {
  process.stderr.write(`[bench] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
