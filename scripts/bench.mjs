#!/usr/bin/env node
/**
 * npm run bench [-- OPTIONS]
 *
 * Runs the life cycle of a stack of N xcat.Node resources plus a network, a group, an OS image
 * and a site attribute, operation by operation:
 *   up         pulumi up (create everything)
 *   preview    pulumi preview, no changes
 *   refresh    pulumi refresh
 *   roll       pulumi up with a new provmethod on every node (an image roll)
 *   roll@dflt  the roll back, at the engine's default parallelism (4 x CPUs), to show what
 *              merging gives without --parallel (left out when --parallel default, and for
 *              the per-object variant, which sends one request per node at any parallelism)
 *   destroy    pulumi destroy
 * for variants with the same engine settings:
 *   floor       the same program shape on a dynamic provider that does no I/O (the engine's cost);
 *   batched     pulumi-xcat as shipped (reads, deletes and equal updates merged);
 *   nodeset     (asked for by name) the same nodes as NodeSets of 40 (issue #38; its bars: preview
 *               <= 15 s at the engine's default parallelism, refresh <= 20 requests, a roll and
 *               destroy <= 1 request per set, the provider process under 1 GB), a TypeScript
 *               program (written as JavaScript) on the dynamic provider;
 *   nodeset-native (asked for by name) the nodeset program on the native provider's classes
 *               (`pulumi-xcat/native`, run by pulumi-resource-xcat); the same bars;
 *   nodeset-yaml (asked for by name) the same NodeSets as a YAML program of the native provider,
 *               each set's ip and bmc in a CSV file (inventory/rackNNN.csv, read with
 *               fn::readFile), as `pulumi-xcat import --language yaml` writes a cluster; the same
 *               bars;
 *   per-object  pulumi-xcat with XCAT_BATCHING=0: one request per read, delete and update, and a
 *               read-back GET after every create and update (what was measured on a real
 *               management node in issue #11).
 * Each pulumi-xcat variant gets its own in-process emulator, by default with the cost model of a
 * real 2-CPU xCAT management node (--cost-model xcat: every request costs ~0.3 s of its CPU plus
 * per-object work, see docs/large-stacks.md). The emulator counts the HTTP requests (token
 * requests included). Variants run interleaved, operation by operation, so that load from other
 * processes spreads over all of them. Per step the table shows wall time, requests, requests per
 * node, the CPU of all pulumi processes, the CPU and peak memory (VmHWM) of the dynamic-provider
 * process, and the management node's CPU-seconds charged by the cost model.
 *
 * A separate leg seeds an emulator with a 5,000-node cluster (racks:20x250) and runs a stack
 * that manages 3 nodes of it: its refresh must read only those nodes (at most 3 requests for
 * nodes, no whole-cluster read).
 *
 * The per-object variant sends ~2 requests per node in up and roll, 1 in refresh and destroy;
 * under the cost model that is ~1.4 s of management-node time per node, so at 1,000 nodes it
 * alone would take over half an hour. It therefore runs on --per-object-nodes nodes (default
 * 200 under the cost model, N without it); the table says so, and its wall times at N are
 * estimated by scaling (the management node is the bottleneck, so they grow with the requests).
 *
 * Options:
 *   --nodes N               nodes in the stack (default 1000)
 *   --cost-model xcat|none  emulator cost model (default xcat; none = the plain, fast emulator,
 *                           for the provider-CPU bars, e.g. --nodes 5000 --cost-model none)
 *   --mn-cpus C             CPUs of the emulated management node (default 2)
 *   --parallel P|default    engine steps at once (default "default": nothing is passed, so the
 *                           engine's own 4 x CPUs, or PULUMI_PARALLEL when that is set, as
 *                           users run it; issue #25); a number is passed as --parallel P (a
 *                           merged delete or update holds at most the steps under way, and at
 *                           most 100 nodes, docs/large-stacks.md)
 *   --variants LIST         comma list of floor,batched,per-object,nodeset,nodeset-native,
 *                           nodeset-yaml (default
 *                           the first three); the nodeset variants are the same cluster as
 *                           NodeSets of --set-size nodes
 *   --set-size S            nodes per NodeSet of the nodeset variants (default 40, a rack)
 *   --per-object-nodes M    nodes of the per-object variant (default 200 under the cost model, else N)
 *   --rounds R              whole life cycles; the table shows the median (default 1 under the
 *                           cost model, 3 without)
 *   --no-cluster-leg        skip the 3-nodes-of-5,000 leg
 *   --skip-checkpoints      PULUMI_SKIP_CHECKPOINTS=true (default: the engine writes its
 *                           checkpoints after every step, as users run it; issue #25). For
 *                           every variant alike. Use it at 10,000 nodes: the file backend
 *                           rewrites the whole state after every step, so an up or destroy of N
 *                           resources writes O(N^2) bytes (10,000 Nodes: a ~30 MB state 10,000
 *                           times), which is the engine's cost, not the provider's.
 *   --steps LIST            comma list of the steps to run, of up, preview, refresh, roll,
 *                           roll@dflt, destroy (default all; roll@dflt only with a numeric
 *                           --parallel). They run in the life cycle's order whatever order they
 *                           are given in; up must be among them (each round starts from an empty
 *                           stack), and destroy too with --rounds above 1. E.g. --steps
 *                           up,roll,destroy for the image roll and the teardown alone.
 *   --not-waited LIST       with --cost-model xcat: these steps (a comma list of steps this run
 *                           runs) of each pulumi-xcat variant are modelled, not waited. The
 *                           emulator charges every request of such a step to the management
 *                           node's CPU-seconds and counts it, but answers it at once instead of
 *                           waiting for the modelled time (10,000 creates: ~5,600 CPU-s as
 *                           NodeSets, ~10,000 as Nodes with their name-service calls, 47 and 84
 *                           minutes of a 2-CPU management node; the Nodes' destroy an estimated
 *                           4,500). The table's row of such a step says "not waited" and shows
 *                           its requests and the management node's CPU-s with no wall time (nor
 *                           the x floor figures), a line below the table what that CPU means in
 *                           time (at least CPU-s / CPUs), and the bench: line's seconds field
 *                           is "not-waited". A bar on wall time is n/a for it; a bar on requests
 *                           is measured and marked "(not waited)".
 *                           What still waits: every other step and the cluster leg, each starting
 *                           on an idle management node, as without the option (a request
 *                           charged without waiting never occupies the modelled CPUs). What the
 *                           option changes in a step not waited: answers come back at once, so
 *                           what the provider merges by timing can differ (the Nodes' merged
 *                           PUTs and DELETEs, reads and name-service calls, and the name-service
 *                           removals merged across NodeSets); what does not depend on timing
 *                           cannot (one POST per node in an up, one PUT and one DELETE per
 *                           NodeSet, the preview's and refresh's requests). Such a step's request
 *                           count is that of a fast server. The floor variant has no server and
 *                           is measured as always.
 *   --up-not-waited         the same as --not-waited up (kept for the commands already written
 *                           down)
 *   --url URL               measure a real management node instead of emulators: the xcatws URL,
 *                           with XCAT_E2E_USERNAME, XCAT_E2E_PASSWORD (and XCAT_E2E_CA_CERT) in
 *                           the environment; floor, batched and nodeset variants; nodes are
 *                           named bn00001... and destroyed at the end
 *   --access-log PATH       with --url: the management node's Apache access log, from which the
 *                           requests are counted
 *   --env KEY=VALUE         extra environment for every pulumi run (repeatable)
 *   --keep                  keep the work directory (stacks, pulumi logs)
 *   --profile-dir DIR       write V8 CPU profiles of the node processes (NODE_OPTIONS=--cpu-prof)
 *   --help                  show this text
 *
 * Bars of issue #25 (cost model on or a real management node, engine default parallelism,
 * checkpoints kept; batched variant; from 200 nodes): up <= 1.1 requests per resource, refresh <=
 * 0.05 requests per node, image roll <= 0.1 and destroy <= 0.1 requests per node.
 * Bars of issue #11 (cost model on, --parallel 100 --skip-checkpoints; batched variant): up <= 1.05 requests per resource; preview
 * <= 1 request (the connection check, issue #16); refresh <= 0.02 requests per node and wall <=
 * floor + 5 s; roll <= 0.05 requests per node; destroy <= 0.05 requests per node and wall <=
 * floor + 10 s; 3 nodes of 5,000: refresh <= 3 requests for its nodes. Without the cost model:
 * up <= 1.05 requests per resource, preview <= 1 request and wall <= 1.15 x floor, up wall <=
 * 1.25 x floor (the provider-CPU bars). Each is marked met or MISSED, and the bench exits 1 when
 * one is missed. The bars per node or per resource and the wall bars are stated for 1,000 nodes
 * and the CPU ratios for 5,000: with fewer nodes they show as n/a (the fixed requests, the token
 * and the 4 other resources, weigh more there). The bench also checks on the emulator that each
 * roll really changed every node's provmethod.
 *
 * Progress goes to stderr, one line per step and one every 30 s of a long step. The last line
 * on stdout is
 *   bench: nodes=N model=xcat up_requests_per_resource=A refresh_requests_per_node=B
 *   destroy_requests_per_node=C roll_requests_per_node=D up_s=.. refresh_s=.. destroy_s=..
 *   roll_s=.. floor_up_s=.. floor_refresh_s=.. floor_destroy_s=..
 * (one line; model=none with --cost-model none; a step's _s=not-waited when it was not waited,
 * NaN when it did not run), from the
 * batched variant and the floor.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, createWriteStream, fstatSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import { createRequire } from "node:module";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { barResult, notWaitedNote, secondsField, wallCell } from "../bench/not-waited.mjs";
import { parseArgs } from "../bench/options.mjs";
import {
  FLOOR_PROGRAM,
  nodeSetYamlFiles,
  XCAT_NODES_PROGRAM,
  XCAT_NODESET_NATIVE_PROGRAM,
  XCAT_NODESET_PROGRAM,
  XCAT_PROGRAM,
} from "../bench/programs.mjs";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

const IMAGE_A = "rhels9.4-x86_64-netboot-compute";
const IMAGE_B = "rhels9.5-x86_64-netboot-compute";
/** The cluster the few-nodes leg runs in: 20 racks of 250 nodes (plus a few login and VM nodes). */
const CLUSTER_SEED = "racks:20x250";
const FEW_NODES = 3;
/** The engine's default parallelism: 4 × GOMAXPROCS (pulumi-notes.md 1.1). */
const ENGINE_DEFAULT_PARALLEL = 4 * availableParallelism();

/** The comment block at the top of this file, as the --help text. */
function helpText() {
  const source = readFileSync(fileURLToPath(import.meta.url), "utf8");
  const block = source.slice(source.indexOf("/**") + 3, source.indexOf("*/"));
  return `${block
    .split("\n")
    .map((line) => line.replace(/^ \* ?/, "").replace(/^ \*$/, ""))
    .join("\n")
    .trim()}\n`;
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
        // The dynamic-provider host (TypeScript programs) or the native provider (YAML).
        const provider = cmdline.includes("dynamic-provider") || cmdline.includes("pulumi-resource-xcat");
        if (provider && !cmdline.includes("require.resolve")) found.push(pid);
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
    return {
      peakKb: Math.max(0, ...peaks.values()),
      providerCpuS: [...cpu.values()].reduce((a, b) => a + b, 0),
    };
  };
}

/**
 * Copies a program into a workspace with an isolated PULUMI_HOME, file backend and stack. The
 * program is JavaScript text, or (YAML) the files of its folder by relative path.
 */
async function createWorkspace(root, name, programText, env) {
  const dir = join(root, name);
  const program = join(dir, "program");
  await mkdir(join(program, "node_modules", "@pulumi"), { recursive: true });
  await mkdir(join(dir, "home"), { recursive: true });
  await mkdir(join(dir, "state"), { recursive: true });
  if (typeof programText === "string") {
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
  } else {
    for (const [path, text] of Object.entries(programText)) {
      await mkdir(dirname(join(program, path)), { recursive: true });
      await writeFile(join(program, path), text);
    }
  }
  const workspace = {
    name,
    dir,
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

/** `0m1.234s` (bash's `times`) in seconds. */
const bashSeconds = (text) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : 0;
};

/**
 * Runs pulumi in a workspace. Resolves with the wall time in ms, the CPU-seconds of pulumi and
 * every process it waited for (engine, language host, program, provider: bash's `times`), and,
 * when watched, the provider's peak memory and CPU. `unset` names variables to take out of the
 * environment; `onTick` runs every 30 s while it runs.
 */
function pulumi(workspace, args, { watch = false, env = {}, unset = [], onTick } = {}) {
  const fullArgs = [...args, "--non-interactive", "--color", "never"];
  workspace.log.write(`\n$ pulumi ${fullArgs.join(" ")}\n`);
  const timesFile = join(workspace.dir, "times");
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const childEnv = { ...process.env, ...workspace.env, ...env, BENCH_TIMES_FILE: timesFile };
    for (const key of unset) delete childEnv[key];
    // bash reports the CPU of the children it waited for, which include theirs.
    const child = spawn(
      "bash",
      ["-c", 'pulumi "$@"; rc=$?; times > "$BENCH_TIMES_FILE"; exit $rc', "bash", ...fullArgs],
      {
        cwd: workspace.program,
        env: childEnv,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const stopWatch = watch ? watchProvider(child.pid) : async () => ({ peakKb: 0, providerCpuS: 0 });
    const ticker = onTick
      ? setInterval(() => onTick((performance.now() - started) / 1000), 30_000)
      : undefined;
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
      if (ticker) clearInterval(ticker);
      const { peakKb, providerCpuS } = await stopWatch();
      let pulumiCpuS = 0;
      try {
        const children = (await readFile(timesFile, "utf8")).trim().split("\n")[1] ?? "";
        pulumiCpuS = children.split(/\s+/).reduce((sum, part) => sum + bashSeconds(part), 0);
      } catch {}
      if (code !== 0)
        reject(new Error(`pulumi ${args.join(" ")} (${workspace.name}) exited with ${code}:\n${tail}`));
      else resolvePromise({ wallMs, peakKb, providerCpuS, pulumiCpuS });
    });
  });
}

/**
 * Counts the requests a real management node logged under `pathPrefix` (the xcatws URL's path)
 * in its Apache access log since this was called. The log's request line (`"%r"`) is all it
 * reads, so any LogFormat that has it works.
 */
function accessLogRecorder(path, pathPrefix) {
  const from = statSync(path).size;
  const read = () => {
    const fd = openSync(path, "r");
    try {
      const buffer = Buffer.alloc(Math.max(0, fstatSync(fd).size - from));
      readSync(fd, buffer, 0, buffer.length, from);
      return buffer.toString("utf8");
    } finally {
      closeSync(fd);
    }
  };
  const requests = () =>
    read()
      .split("\n")
      .map((line) => /"([A-Z]+) (\S+) HTTP\/[\d.]+"/.exec(line))
      .filter((m) => m !== null)
      .map((m) => [m[1], m[2].split("?")[0]])
      .filter(([, p]) => p === pathPrefix || p.startsWith(`${pathPrefix}/`))
      .map(([method, p]) => `${method} ${decodeURIComponent(p)}`);
  return {
    get requests() {
      return requests();
    },
    stats: () => ({ total: requests().length, mnCpuSeconds: 0 }),
  };
}

/**
 * An HTTP proxy in front of an emulator that records each request's method and path (query
 * left out), so the few-nodes leg can say which objects were read.
 */
async function startRecordingProxy(targetUrl) {
  const target = new URL(targetUrl);
  const requests = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${decodeURIComponent((req.url ?? "").split("?")[0])}`);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${server.address().port}${target.pathname}`,
    requests,
    close: () => new Promise((r) => server.close(r)),
  };
}

/**
 * The program a pulumi-xcat variant runs: Node resources, or NodeSets of --set-size nodes (in
 * JavaScript, or in YAML with CSV inventories).
 */
function programOf(variant, options) {
  switch (variant) {
    case "nodeset":
      return XCAT_NODESET_PROGRAM;
    case "nodeset-native":
      return XCAT_NODESET_NATIVE_PROGRAM;
    case "nodeset-yaml":
      return nodeSetYamlFiles(options.nodes, options.setSize);
    default:
      return XCAT_PROGRAM;
  }
}
/** The NodeSet variants, whose bars are issue #38's. */
const NODESET_VARIANTS = ["nodeset", "nodeset-native", "nodeset-yaml"];
/**
 * A variant's programs on the native provider find pulumi-resource-xcat on PATH, where `npm
 * install` puts a package's bins (the dynamic classes need no plugin).
 */
const pathFor = (variant) =>
  variant === "nodeset-native" || variant === "nodeset-yaml"
    ? { PATH: `${join(repoRoot, "node_modules", ".bin")}:${process.env.PATH ?? ""}` }
    : {};

const skipPreview = ["--yes", "--skip-preview"];
/** The operations of one life cycle; `parallel: false` runs at the engine's default. */
const OPERATIONS = [
  { id: "up", label: "up (create)", args: ["up", ...skipPreview], image: IMAGE_A },
  { id: "preview", label: "preview, no changes", args: ["preview", "--expect-no-changes"], image: IMAGE_A },
  { id: "refresh", label: "refresh", args: ["refresh", ...skipPreview], image: IMAGE_A },
  { id: "roll", label: "image roll", args: ["up", ...skipPreview], image: IMAGE_B },
  {
    id: "roll@dflt",
    label: `image roll back, parallel ${ENGINE_DEFAULT_PARALLEL}`,
    args: ["up", ...skipPreview],
    image: IMAGE_A,
    parallel: false,
    skip: (variant) => variant === "per-object",
  },
  { id: "destroy", label: "destroy", args: ["destroy", ...skipPreview], image: IMAGE_A },
];

function table(rows, header) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells.map((c, i) => (i < 2 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Runs the 3-nodes-of-a-5,000-node-cluster leg; returns its figures. */
async function clusterLeg(root, options, common, emulators) {
  const { startEmulator, EMULATOR_DEFAULT_PASSWORD } = require(join(repoRoot, "dist", "emulator"));
  const seeding = performance.now();
  const emulator = await startEmulator({
    user: "root",
    password: EMULATOR_DEFAULT_PASSWORD,
    costModel: options.costModel,
    mnCpus: options.mnCpus,
    seedCluster: CLUSTER_SEED,
  });
  emulators.push(emulator);
  const clusterNodes = emulator.state.listObjects("node").length;
  log(
    `cluster leg: emulator seeded with ${clusterNodes} nodes (${CLUSTER_SEED}) in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const proxy = await startRecordingProxy(emulator.url);
  try {
    const workspace = await createWorkspace(root, "cluster-leg", XCAT_NODES_PROGRAM, {
      ...common,
      BENCH_NODES: String(FEW_NODES),
      XCAT_URL: proxy.url,
      XCAT_USERNAME: "root",
      XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
    });
    await pulumi(workspace, ["up", ...skipPreview]);
    const from = proxy.requests.length;
    const { wallMs } = await pulumi(workspace, ["refresh", ...skipPreview]);
    const refresh = proxy.requests.slice(from);
    const stackNodes = new Set(
      Array.from({ length: FEW_NODES }, (_, i) => `bn${String(i + 1).padStart(5, "0")}`),
    );
    const nodeRequests = refresh.filter((r) => /^\w+ \/xcatws\/nodes(\/|$)/.test(r));
    // A read of anything but the stack's own nodes (the list, ALLRESOURCES, a group) reads the cluster.
    const wide = nodeRequests.filter((r) => {
      const range = /^\w+ \/xcatws\/nodes\/([^/]+)/.exec(r)?.[1];
      return range === undefined || range.split(",").some((name) => !stackNodes.has(name));
    });
    await pulumi(workspace, ["destroy", ...skipPreview]);
    log(
      `cluster leg: refresh of ${FEW_NODES} nodes ${(wallMs / 1000).toFixed(1)} s, requests: ${refresh.join("; ")}`,
    );
    return { clusterNodes, wallMs, requests: refresh, nodeRequests, wide };
  } finally {
    await proxy.close();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(helpText());
    return;
  }
  const { startEmulator, EMULATOR_DEFAULT_PASSWORD } = require(join(repoRoot, "dist", "emulator"));
  const root = await mkdtemp(join(tmpdir(), "pulumi-xcat-bench-"));
  const xcatModel = options.costModel === "xcat";
  // The file backend rewrites the whole checkpoint after every step, which makes `up` of N
  // resources cost O(N²) in the engine alone; users run with them, so the bench does too (issue
  // #25: skipping them changed how merged writes fill); --skip-checkpoints skips them.
  const common = {
    PULUMI_NODEJS_TRANSPILE_ONLY: "true",
    ...(options.checkpoints ? {} : { PULUMI_SKIP_CHECKPOINTS: "true" }),
    ...options.env,
  };
  const envParallel = options.env.PULUMI_PARALLEL ?? process.env.PULUMI_PARALLEL;
  const parallelText =
    options.parallel === "default"
      ? envParallel
        ? `PULUMI_PARALLEL=${envParallel} (no --parallel)`
        : `engine default (4 x CPUs = ${ENGINE_DEFAULT_PARALLEL})`
      : `${options.parallel} (engine default 4 x CPUs = ${ENGINE_DEFAULT_PARALLEL})`;
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
  log(
    `nodes=${options.nodes} model=${options.costModel} parallel=${options.parallel} variants=${options.variants.join(",")} ` +
      `${options.variants.includes("per-object") ? `per-object nodes=${options.perObjectNodes} ` : ""}rounds=${options.rounds} load=${load()} dir=${root}`,
  );
  const benchStarted = performance.now();
  const loadAtStart = load();

  const emulators = [];
  const closers = [];
  const variants = [];
  try {
    for (const id of options.variants) {
      const nodes = id === "per-object" ? options.perObjectNodes : options.nodes;
      if (id === "floor") {
        variants.push({
          id,
          nodes,
          workspace: await createWorkspace(root, id, FLOOR_PROGRAM, {
            ...common,
            BENCH_NODES: String(nodes),
          }),
        });
        continue;
      }
      if (options.url !== undefined) {
        // A real management node: requests are counted from its access log.
        const recorder = accessLogRecorder(options.accessLog, new URL(options.url).pathname);
        variants.push({
          id,
          nodes,
          counter: recorder,
          proxy: recorder,
          workspace: await createWorkspace(root, id, programOf(id, options), {
            ...common,
            BENCH_NODES: String(nodes),
            BENCH_SET_SIZE: String(options.setSize),
            XCAT_URL: options.url,
            XCAT_USERNAME: process.env.XCAT_E2E_USERNAME,
            XCAT_PASSWORD: process.env.XCAT_E2E_PASSWORD,
            ...(process.env.XCAT_E2E_CA_CERT ? { XCAT_CA_CERT: process.env.XCAT_E2E_CA_CERT } : {}),
            XCAT_BATCHING: id === "per-object" ? "0" : "1",
            ...pathFor(id),
          }),
        });
        continue;
      }
      const emulator = await startEmulator({
        user: "root",
        password: EMULATOR_DEFAULT_PASSWORD,
        costModel: options.costModel,
        mnCpus: options.mnCpus,
      });
      emulators.push(emulator);
      // Under the cost model requests are few and slow: a recording proxy (~1 ms a request) shows
      // how many nodes each merged write held.
      const proxy =
        xcatModel && (id === "batched" || NODESET_VARIANTS.includes(id))
          ? await startRecordingProxy(emulator.url)
          : undefined;
      if (proxy) closers.push(proxy.close);
      const env = {
        ...common,
        BENCH_NODES: String(nodes),
        BENCH_SET_SIZE: String(options.setSize),
        XCAT_URL: proxy?.url ?? emulator.url,
        XCAT_USERNAME: "root",
        XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD,
        XCAT_BATCHING: id === "per-object" ? "0" : "1",
        ...pathFor(id),
      };
      variants.push({
        id,
        nodes,
        emulator,
        counter: emulator,
        proxy,
        workspace: await createWorkspace(root, id, programOf(id, options), env),
      });
    }

    const samples = new Map();
    const failures = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const operation of OPERATIONS) {
        for (const variant of variants) {
          if (!options.steps.includes(operation.id) || operation.skip?.(variant.id, options)) continue;
          const stats = () => variant.counter?.stats() ?? { total: 0, mnCpuSeconds: 0 };
          const before = stats();
          const recordedBefore = variant.proxy?.requests.length ?? 0;
          const benchCpu = process.cpuUsage();
          const profile = options.profileDir
            ? {
                NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${join(options.profileDir, `${variant.id}-${operation.id}`)}`,
              }
            : {};
          const parallelArgs =
            operation.parallel === false || options.parallel === "default"
              ? []
              : ["--parallel", String(options.parallel)];
          // YAML reads no environment: its image is the stack's config, set before the timing.
          if (variant.id === "nodeset-yaml")
            await pulumi(variant.workspace, ["config", "set", "benchImage", operation.image]);
          log(
            `round ${round} ${operation.id} ${variant.id} (${variant.nodes} nodes): started, load ${load()}`,
          );
          // --not-waited: the emulator charges the step's requests without waiting for them; every
          // other step waits, on a management node left idle by this one (a request charged
          // without waiting never occupies the modelled CPUs). The floor has no server to skip.
          const notWaited = options.notWaited.includes(operation.id) && variant.emulator !== undefined;
          if (notWaited) variant.emulator.setCostModelWaits(false);
          let result;
          try {
            result = await pulumi(variant.workspace, [...operation.args, ...parallelArgs], {
              watch: true,
              env: { ...profile, BENCH_IMAGE: operation.image },
              // roll@dflt measures the engine's default, which PULUMI_PARALLEL would override.
              unset: operation.parallel === false ? ["PULUMI_PARALLEL"] : [],
              onTick: (s) =>
                log(
                  `  ${operation.id} ${variant.id}: ${s.toFixed(0)} s, ${stats().total - before.total} requests so far`,
                ),
            });
          } finally {
            if (notWaited) variant.emulator.setCostModelWaits(true);
          }
          const used = process.cpuUsage(benchCpu);
          const after = stats();
          const routes = Object.fromEntries(
            Object.entries(after.byRoute ?? {})
              .map(([route, count]) => [route, count - (before.byRoute?.[route] ?? 0)])
              .filter(([, count]) => count > 0),
          );
          const byRoute = Object.entries(routes)
            .map(([route, count]) => `${route} ${count}`)
            .join(", ");
          // Names per merged node write, in the order sent.
          const mergedWrites = (variant.proxy?.requests.slice(recordedBefore) ?? [])
            .map((r) => /^(PUT|DELETE) \/xcatws\/nodes\/([^/]+)$/.exec(r))
            .filter((m) => m !== null)
            .map((m) => `${m[1]} ${m[2].split(",").length}`);
          const sample = {
            ...result,
            requests: after.total - before.total,
            routes,
            mnCpuS: (after.mnCpuSeconds ?? 0) - (before.mnCpuSeconds ?? 0),
            mnCpuNotWaitedS: (after.mnCpuSecondsNotWaited ?? 0) - (before.mnCpuSecondsNotWaited ?? 0),
            notWaited,
            benchCpuS: (used.user + used.system) / 1e6,
          };
          if (variant.emulator && (operation.id === "roll" || operation.id === "roll@dflt")) {
            // The roll really happened: every node of the emulator carries the new provmethod.
            const rows = variant.emulator.state.getRows("nodetype").filter((row) => /^bn\d+$/.test(row.node));
            const rolled = rows.filter((row) => row.provmethod === operation.image).length;
            if (rolled !== variant.nodes)
              failures.push(
                `${operation.id} ${variant.id}: ${rolled} of ${variant.nodes} nodes have provmethod ${operation.image}`,
              );
          }
          const key = `${variant.id}/${operation.id}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
          log(
            `round ${round} ${operation.id} ${variant.id}: ${(sample.wallMs / 1000).toFixed(1)} s` +
              `${notWaited ? ` (cost model charged, not waited: ${sample.mnCpuNotWaitedS.toFixed(1)} CPU-s)` : ""}, ${sample.requests} requests, ` +
              `pulumi CPU ${sample.pulumiCpuS.toFixed(1)} s, provider CPU ${sample.providerCpuS.toFixed(1)} s, ` +
              `provider peak ${(sample.peakKb / 1024).toFixed(0)} MB, management node ${sample.mnCpuS.toFixed(1)} CPU-s` +
              (byRoute ? ` (${byRoute})` : "") +
              (mergedWrites.length > 0 ? `; nodes per node write: ${mergedWrites.join(" ")}` : ""),
          );
        }
      }
    }
    const results = new Map();
    for (const [key, list] of samples) {
      results.set(key, {
        wallMs: median(list.map((r) => r.wallMs)),
        peakKb: Math.max(...list.map((r) => r.peakKb)),
        requests: median(list.map((r) => r.requests)),
        routes: list.at(-1).routes,
        providerCpuS: median(list.map((r) => r.providerCpuS)),
        pulumiCpuS: median(list.map((r) => r.pulumiCpuS)),
        mnCpuS: median(list.map((r) => r.mnCpuS)),
        notWaited: list.some((r) => r.notWaited),
      });
    }

    const cluster =
      options.clusterLeg && options.variants.includes("batched")
        ? await clusterLeg(root, options, common, emulators)
        : undefined;

    // The bars of issue #11, for the batched variant. Those stated per node or per resource hold
    // at 1,000 nodes (below that the fixed requests, the token and the 4 other resources, weigh
    // more), the CPU ratios at 5,000; at fewer nodes they are shown as n/a.
    const get = (variant, op) => results.get(`${variant}/${op}`);
    const floorS = (op) => (get("floor", op) ? get("floor", op).wallMs / 1000 : undefined);
    const batched = (op) => get("batched", op);
    const resources = options.nodes + 4;
    const perNode = (op) => batched(op).requests / options.nodes;
    const wallS = (op) => batched(op).wallMs / 1000;
    const floorText = (op) => `${wallS(op).toFixed(1)} s, floor ${floorS(op).toFixed(1)} s`;
    const ratio = (op) => wallS(op) / floorS(op);
    const perNodeBar = (op, name, limit) => ({
      op,
      text: `${name} <= ${limit} requests per node`,
      from: 1000,
      measure: () => perNode(op),
      met: (v) => v <= limit,
      show: (v) => v.toFixed(3),
    });
    const floorPlusBar = (op, seconds) => ({
      op,
      text: `${op} wall <= floor + ${seconds} s`,
      from: 1000,
      floor: true,
      measure: () => wallS(op),
      met: (v) => v <= floorS(op) + seconds,
      show: () => floorText(op),
    });
    const ratioBar = (op, limit) => ({
      op,
      text: `${op} wall <= ${limit} x floor`,
      from: 5000,
      floor: true,
      measure: () => ratio(op),
      met: (v) => v <= limit,
      show: (v) => `${v.toFixed(2)} x`,
    });
    const upBar = (limit) => ({
      op: "up",
      text: `up <= ${limit} requests per resource`,
      from: 1000,
      measure: () => batched("up").requests / resources,
      met: (v) => v <= limit,
      show: (v) => v.toFixed(3),
    });
    // Issue #11's bars were set for --parallel 100 with checkpoints skipped.
    const issue11Settings =
      typeof options.parallel === "number" && options.parallel >= 100 && !options.checkpoints;
    const candidates = [
      ...(issue11Settings || options.costModel === "none" ? [upBar(1.05)] : []),
      {
        op: "preview",
        text: "preview <= 1 request (the connection check)",
        from: 1,
        measure: () => batched("preview").requests,
        met: (v) => v <= 1,
        show: String,
      },
      ...(xcatModel && issue11Settings
        ? [
            perNodeBar("refresh", "refresh", 0.02),
            floorPlusBar("refresh", 5),
            perNodeBar("roll", "image roll", 0.05),
            perNodeBar("destroy", "destroy", 0.05),
            floorPlusBar("destroy", 10),
          ]
        : []),
      ...(options.costModel === "none" ? [ratioBar("preview", 1.15), ratioBar("up", 1.25)] : []),
      // Issue #25: what users get, at the engine's default parallelism with checkpoints, on the
      // model or a real management node.
      ...(options.costModel !== "none" && options.parallel === "default" && options.checkpoints
        ? [
            { ...upBar(1.1), issue: 25, from: 200 },
            { ...perNodeBar("refresh", "refresh", 0.05), issue: 25, from: 200 },
            { ...perNodeBar("roll", "image roll", 0.1), issue: 25, from: 200 },
            { ...perNodeBar("destroy", "destroy", 0.1), issue: 25, from: 200 },
          ]
        : []),
    ];
    const bars = [];
    for (const c of candidates) {
      if (!batched(c.op) || (c.floor && floorS(c.op) === undefined)) continue;
      const value = c.measure();
      const applies = options.nodes >= c.from;
      bars.push({
        op: c.op,
        text: `#${c.issue ?? 11}: ${c.text}`,
        // A bar on wall time shows no figure for a step not waited (its wall is a fast server's).
        measured:
          c.floor && batched(c.op).notWaited
            ? "not waited"
            : `${c.show(value)}${batched(c.op).notWaited ? " (not waited)" : ""}`,
        result: barResult({
          onWall: c.floor === true,
          notWaited: batched(c.op).notWaited,
          applies,
          from: c.from,
          met: c.met(value),
        }),
      });
    }
    if (cluster) {
      const met = cluster.nodeRequests.length <= 3 && cluster.wide.length === 0;
      bars.push({
        op: "cluster",
        text: `${FEW_NODES} of ${cluster.clusterNodes} nodes: refresh <= 3 requests for its nodes, no whole-cluster read`,
        measured: `${cluster.nodeRequests.length} node requests, ${cluster.wide.length} wider`,
        result: met ? "met" : "MISSED",
      });
    }
    const routeCount = (result, route) => result?.routes?.[route] ?? 0;
    // Issue #38's bars, for each NodeSet variant at the engine's default parallelism.
    const sets = Math.ceil(options.nodes / options.setSize);
    for (const variantId of NODESET_VARIANTS) {
      if (!OPERATIONS.some((op) => get(variantId, op.id))) continue;
      const nodeset = (op) => get(variantId, op);
      const defaultParallel = options.parallel === "default";
      const nodesetBars = [
        ...(defaultParallel && nodeset("preview")
          ? [
              {
                op: "preview",
                text: "preview, no changes, <= 15 s wall",
                value: nodeset("preview").wallMs / 1000,
                limit: 15,
                onWall: true,
                show: (v) => `${v.toFixed(1)} s`,
              },
            ]
          : []),
        { op: "refresh", text: "refresh <= 20 requests", value: nodeset("refresh")?.requests, limit: 20 },
        // Per set: the requests that write the sets' nodes (the other four resources and the token
        // are the same in every variant); the name-service removals a destroy sends besides
        // (makedns -d, makedhcp -d of the deleted nodes, merged across sets) are shown, not counted.
        {
          op: "roll",
          text: "image roll <= 1 node write per set",
          value: nodeset("roll") && routeCount(nodeset("roll"), "PUT /nodes/{noderange}") / sets,
          limit: 1,
          show: (v) =>
            `${v.toFixed(3)} (${routeCount(nodeset("roll"), "PUT /nodes/{noderange}")} PUTs for ${sets} sets, ${nodeset("roll").requests} requests in all)`,
        },
        {
          op: "destroy",
          text: "destroy <= 1 node delete per set",
          value: nodeset("destroy") && routeCount(nodeset("destroy"), "DELETE /nodes/{noderange}") / sets,
          limit: 1,
          show: (v) =>
            `${v.toFixed(3)} (${routeCount(nodeset("destroy"), "DELETE /nodes/{noderange}")} DELETEs for ${sets} sets; ` +
            `name services ${routeCount(nodeset("destroy"), "DELETE /nodes/{noderange}/dns")} dns + ` +
            `${routeCount(nodeset("destroy"), "DELETE /nodes/{noderange}/dhcp")} dhcp; ${nodeset("destroy").requests} requests in all)`,
        },
        {
          op: "peak",
          text: "provider process < 1 GB",
          value: Math.max(...OPERATIONS.map((op) => nodeset(op.id)?.peakKb ?? 0)) / 1024,
          limit: 1023.99,
          show: (v) => `${v.toFixed(0)} MB`,
        },
      ];
      for (const b of nodesetBars) {
        if (b.value === undefined) continue;
        const notWaited = nodeset(b.op)?.notWaited === true;
        bars.push({
          op: `${variantId} ${b.op}`,
          text: `#38 (${variantId}, ${sets} sets of ${options.setSize}): ${b.text}`,
          measured:
            b.onWall && notWaited
              ? "not waited"
              : `${(b.show ?? String)(b.value)}${notWaited ? " (not waited)" : ""}`,
          result: barResult({ onWall: b.onWall === true, notWaited, applies: true, met: b.value <= b.limit }),
        });
      }
    }
    const perObjectPreview = get("per-object", "preview");
    if (perObjectPreview) {
      bars.push({
        op: "per-object preview",
        text: "per-object: preview <= 1 request",
        measured: String(perObjectPreview.requests),
        result: perObjectPreview.requests <= 1 ? "met" : "MISSED",
      });
    }

    const rows = [];
    for (const operation of OPERATIONS) {
      for (const variant of variants) {
        const r = get(variant.id, operation.id);
        if (!r) continue;
        // A step modelled, not waited, has no wall time to show or compare.
        const f = variant.nodes === options.nodes && !r.notWaited ? floorS(operation.id) : undefined;
        const s = r.wallMs / 1000;
        const own =
          variant.id === "batched" ? bars.filter((b) => b.op === operation.id).map((b) => b.result) : [];
        rows.push([
          operation.id,
          variant.id,
          variant.nodes,
          wallCell(r),
          f !== undefined && variant.id !== "floor" ? `${s - f >= 0 ? "+" : ""}${(s - f).toFixed(1)}` : "-",
          f !== undefined && variant.id !== "floor" ? (s / f).toFixed(2) : "-",
          variant.counter ? r.requests : "-",
          variant.counter ? (r.requests / variant.nodes).toFixed(3) : "-",
          r.pulumiCpuS.toFixed(1),
          r.providerCpuS.toFixed(1),
          (r.peakKb / 1024).toFixed(0),
          variant.emulator && xcatModel ? r.mnCpuS.toFixed(1) : "-",
          own.includes("MISSED") ? "MISSED" : own.includes("met") ? "met" : own.length > 0 ? "n/a" : "",
        ]);
      }
    }
    const settings = Object.entries(common)
      .map(([key, value]) => `${key}=${value}`)
      .join(" ");
    const minutes = (performance.now() - benchStarted) / 60_000;
    console.log(
      `pulumi-xcat bench, ${new Date().toISOString().slice(0, 10)}: ${options.nodes} nodes + 4 other resources, ` +
        `${options.url ? `the management node at ${options.url}` : `cost model ${xcatModel ? `xcat (${options.mnCpus} management-node CPUs)` : "none (plain emulator)"}`}, ` +
        `parallel ${parallelText}, ${options.rounds === 1 ? "1 round" : `median of ${options.rounds} rounds`}, ${settings}; ` +
        `${availableParallelism()} CPUs here, load average at the start ${loadAtStart}, at the end ${load()}, ${minutes.toFixed(1)} min`,
    );
    console.log(
      table(rows, [
        "operation",
        "variant",
        "nodes",
        "wall s",
        "- floor s",
        "x floor",
        "requests",
        "req/node",
        "pulumi CPU s",
        "provider CPU s",
        "provider MB",
        "MN CPU s",
        "#11 bar",
      ]),
    );
    console.log(
      "pulumi CPU s: all pulumi processes (engine, language host, program, provider); MN CPU s: the " +
        "management node's CPU-seconds charged by the cost model; req/node: requests / nodes of the variant.",
    );
    for (const operation of OPERATIONS)
      for (const variant of variants) {
        const r = get(variant.id, operation.id);
        if (r?.notWaited) console.log(notWaitedNote(operation.id, variant.id, r, options.mnCpus));
      }
    const perObjectRows = OPERATIONS.map((op) => [op, get("per-object", op.id)]).filter(([, r]) => r);
    if (perObjectRows.length > 0 && options.perObjectNodes !== options.nodes) {
      const scale = options.nodes / options.perObjectNodes;
      console.log(
        `per-object ran on ${options.perObjectNodes} nodes, not ${options.nodes}, to keep the bench short; scaled to ${options.nodes} nodes ` +
          `(its requests grow with the nodes, and the management node is its bottleneck): ` +
          perObjectRows
            .filter(([op]) => op.id !== "preview")
            .map(
              ([op, r]) =>
                `${op.id} ~${Math.round(r.requests * scale)} requests ` +
                (r.notWaited ? "(not waited)" : `~${((r.wallMs / 1000) * scale).toFixed(0)} s`),
            )
            .join(", "),
      );
    }
    if (cluster) {
      console.log(
        `cluster leg: a stack of ${FEW_NODES} nodes in a ${cluster.clusterNodes}-node cluster (${CLUSTER_SEED}): refresh ` +
          `${(cluster.wallMs / 1000).toFixed(1)} s, ${cluster.requests.length} requests (${cluster.requests.join("; ")})`,
      );
    }
    console.log(
      `bars (batched and nodeset variants, ${options.url ? "real management node" : xcatModel ? "cost model on" : "plain emulator"}; ` +
        "#11's at --parallel 100 --skip-checkpoints, #25's at the engine's defaults):",
    );
    console.log(
      table(
        bars.map((b) => [b.text, b.measured, b.result]),
        ["bar", "measured", "result"],
      ),
    );
    for (const failure of failures) console.log(`check failed: ${failure}`);

    const fixed = (value, digits) =>
      value === undefined || Number.isNaN(value) ? "NaN" : value.toFixed(digits);
    const requestsPer = (op, count) => (batched(op) ? batched(op).requests / count : undefined);
    const seconds = (variant, op) => secondsField(get(variant, op));
    console.log(
      `bench: nodes=${options.nodes} model=${options.costModel} ` +
        `up_requests_per_resource=${fixed(requestsPer("up", resources), 3)} ` +
        `refresh_requests_per_node=${fixed(requestsPer("refresh", options.nodes), 3)} ` +
        `destroy_requests_per_node=${fixed(requestsPer("destroy", options.nodes), 3)} ` +
        `roll_requests_per_node=${fixed(requestsPer("roll", options.nodes), 3)} ` +
        `up_s=${seconds("batched", "up")} refresh_s=${seconds("batched", "refresh")} ` +
        `destroy_s=${seconds("batched", "destroy")} roll_s=${seconds("batched", "roll")} ` +
        `floor_up_s=${seconds("floor", "up")} floor_refresh_s=${seconds("floor", "refresh")} ` +
        `floor_destroy_s=${seconds("floor", "destroy")}`,
    );
    const missed = bars.filter((b) => b.result === "MISSED");
    if (missed.length > 0 || failures.length > 0) {
      for (const b of missed) log(`bar missed: ${b.text} (measured ${b.measured})`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(closers.map((close) => close()));
    await Promise.all(emulators.map((e) => e.close()));
    if (!options.keep) await rm(root, { recursive: true, force: true });
    else log(`kept ${root}`);
  }
}

main().catch((error) => {
  process.stderr.write(`[bench] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
