/**
 * The benchmark's command line (scripts/bench.mjs, whose --help text documents each option): a
 * pure function of argv and the environment, so test/unit/bench-options.test.ts can check it
 * without running a stack.
 */
import { resolve } from "node:path";

export const VARIANTS = ["floor", "batched", "per-object", "nodeset", "nodeset-native", "nodeset-yaml"];
/** The variants run when --variants is not given (the nodeset ones are asked for by name). */
export const DEFAULT_VARIANTS = ["floor", "batched", "per-object"];
/**
 * The steps of one life cycle, in the order they run. roll@dflt is the roll back at the engine's
 * default parallelism, run only with a numeric --parallel.
 */
export const STEPS = ["up", "preview", "refresh", "roll", "roll@dflt", "destroy"];

/** A comma list of steps, each one of STEPS, none twice. */
function stepList(flag, text) {
  const list = text.split(",").filter((s) => s !== "");
  if (list.length === 0) throw new Error(`${flag} needs at least one step (${STEPS.join(", ")})`);
  for (const step of list)
    if (!STEPS.includes(step))
      throw new Error(`${flag}: unknown step ${step}; the steps are ${STEPS.join(", ")}`);
  const twice = list.find((step, i) => list.indexOf(step) !== i);
  if (twice !== undefined) throw new Error(`${flag}: ${twice} is named twice`);
  return list;
}

/**
 * Parses the benchmark's arguments. `env` is read for --url's account (XCAT_E2E_USERNAME,
 * XCAT_E2E_PASSWORD). Returns the options with every default filled in; `steps` is in life-cycle
 * order whatever order it was given in, and `notWaited` is the list of steps the emulators
 * charge without waiting for (--not-waited, plus up for --up-not-waited).
 */
export function parseArgs(argv, env = process.env) {
  const options = {
    nodes: 1000,
    parallel: "default",
    variants: DEFAULT_VARIANTS,
    setSize: 40,
    env: {},
    keep: false,
    checkpoints: true,
    rounds: undefined,
    profileDir: undefined,
    costModel: "xcat",
    mnCpus: 2,
    perObjectNodes: undefined,
    clusterLeg: true,
    steps: undefined,
    notWaited: [],
    url: undefined,
    accessLog: undefined,
    help: false,
  };
  const notWaitedFlags = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === "--nodes") options.nodes = Number(value());
    else if (arg === "--parallel") {
      const v = value();
      options.parallel = v === "default" ? "default" : Number(v);
    } else if (arg === "--variants") options.variants = value().split(",");
    else if (arg === "--env") {
      const [key, ...rest] = value().split("=");
      options.env[key] = rest.join("=");
    } else if (arg === "--keep") options.keep = true;
    else if (arg === "--checkpoints") options.checkpoints = true;
    else if (arg === "--skip-checkpoints") options.checkpoints = false;
    else if (arg === "--rounds") options.rounds = Number(value());
    else if (arg === "--profile-dir") options.profileDir = resolve(value());
    else if (arg === "--cost-model") options.costModel = value();
    else if (arg === "--mn-cpus") options.mnCpus = Number(value());
    else if (arg === "--per-object-nodes") options.perObjectNodes = Number(value());
    else if (arg === "--set-size") options.setSize = Number(value());
    else if (arg === "--no-cluster-leg") options.clusterLeg = false;
    else if (arg === "--steps") options.steps = stepList(arg, value());
    else if (arg === "--not-waited") {
      options.notWaited.push(...stepList(arg, value()));
      notWaitedFlags.push(arg);
    } else if (arg === "--up-not-waited") {
      // The first form of --not-waited, kept: the same as --not-waited up.
      options.notWaited.push("up");
      notWaitedFlags.push(arg);
    } else if (arg === "--url") options.url = value();
    else if (arg === "--access-log") options.accessLog = resolve(value());
    else if (arg === "--help" || arg === "-h") options.help = true;
    else throw new Error(`unknown argument ${arg} (see --help)`);
  }
  const whole = (n) => Number.isInteger(n) && n >= 1;
  if (!whole(options.nodes)) throw new Error("--nodes must be a whole number above 0");
  if (options.costModel !== "xcat" && options.costModel !== "none")
    throw new Error("--cost-model must be xcat or none");
  if (options.parallel !== "default" && !whole(options.parallel))
    throw new Error("--parallel must be a whole number above 0, or default");
  if (!(options.mnCpus > 0)) throw new Error("--mn-cpus must be a number above 0");
  if (!whole(options.setSize)) throw new Error("--set-size must be a whole number above 0");
  for (const id of options.variants)
    if (!VARIANTS.includes(id))
      throw new Error(`unknown variant ${id}; the variants are ${VARIANTS.join(", ")}`);
  if (options.url !== undefined) {
    if (options.accessLog === undefined)
      throw new Error(
        "--url needs --access-log: the requests are counted from the management node's access log",
      );
    for (const name of ["XCAT_E2E_USERNAME", "XCAT_E2E_PASSWORD"])
      if (!env[name]) throw new Error(`--url needs ${name} (and XCAT_E2E_CA_CERT for a private CA)`);
    options.costModel = "real";
    options.clusterLeg = false;
    if (options.variants.includes("per-object") && !argv.includes("--variants"))
      options.variants = options.variants.filter((id) => id !== "per-object");
  }
  options.rounds ??= options.costModel === "none" ? 3 : 1;
  if (!whole(options.rounds)) throw new Error("--rounds must be a whole number above 0");
  options.perObjectNodes ??= options.costModel === "xcat" ? Math.min(options.nodes, 200) : options.nodes;
  if (!whole(options.perObjectNodes)) throw new Error("--per-object-nodes must be a whole number above 0");

  // The steps: every one by default (roll@dflt only with a numeric --parallel, as before).
  const numericParallel = options.parallel !== "default";
  if (options.steps === undefined) options.steps = STEPS.filter((s) => s !== "roll@dflt" || numericParallel);
  else {
    const asked = options.steps;
    options.steps = STEPS.filter((s) => asked.includes(s));
    // Each round starts from an empty stack: without its up the other steps have nothing to act on.
    if (!asked.includes("up"))
      throw new Error("--steps must include up: each round starts from an empty stack");
    if (asked.includes("roll@dflt") && !numericParallel)
      throw new Error(
        "--steps roll@dflt needs a numeric --parallel (it is the roll back at the engine's default)",
      );
    if (asked.includes("roll@dflt") && !asked.includes("roll"))
      throw new Error("--steps roll@dflt needs roll (it rolls the image back)");
    if (options.rounds > 1 && !asked.includes("destroy"))
      throw new Error(
        "--steps must include destroy with --rounds above 1: the next round's up starts from an empty stack",
      );
  }

  if (options.notWaited.length > 0) {
    const flags = [...new Set(notWaitedFlags)].join(" and ");
    if (options.costModel !== "xcat")
      throw new Error(
        `${flags} needs the cost model (--cost-model xcat): without it nothing is waited for, and a real management node cannot skip its work`,
      );
    options.notWaited = STEPS.filter((s) => options.notWaited.includes(s));
    const notRun = options.notWaited.filter((s) => !options.steps.includes(s));
    if (notRun.length > 0)
      throw new Error(
        `${flags} names ${notRun.join(", ")}, which this run does not run (steps: ${options.steps.join(", ")})`,
      );
  }
  return options;
}
