/**
 * The Pulumi engine's calls under way in this provider process (create, read, update, delete),
 * and how many the engine can have under way at once. The client's merged requests use it to
 * send as soon as every call the engine can make is waiting on them (see src/client/coalescer.ts):
 * then no further call can join until one is answered, and holding on would only add latency.
 *
 * How many at once: the engine runs at most `--parallel` steps at a time, by default 4 × the
 * CPUs Go sees (GOMAXPROCS), or PULUMI_PARALLEL when set (pulumi-notes.md 1.1). A `--parallel`
 * on the command line does not reach the provider, so the highest number ever seen under way
 * counts too: a run at `--parallel 100` is recognised once more than the default were under way.
 * Check and diff are left out: the engine makes them one at a time, outside that limit.
 */
import { availableParallelism } from "node:os";
import type { CallerGauge } from "../client";

let underWay = 0;
let mostSeen = 0;

/**
 * Runs one engine call, counted as under way while it runs.
 *
 * @example
 * ```ts
 * const outs = await countedEngineCall(() => spec.update(client, id, olds, news));
 * ```
 */
export async function countedEngineCall<T>(call: () => Promise<T>): Promise<T> {
  underWay += 1;
  mostSeen = Math.max(mostSeen, underWay);
  try {
    return await call();
  } finally {
    underWay -= 1;
  }
}

/**
 * The engine's steps at once when nothing says otherwise: PULUMI_PARALLEL, else 4 × GOMAXPROCS
 * (the CPUs when unset), as the CLI computes its default.
 */
export function defaultEngineParallelism(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.PULUMI_PARALLEL);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  const procs = Number(env.GOMAXPROCS);
  return 4 * (Number.isInteger(procs) && procs > 0 ? procs : availableParallelism());
}

/** The gauge this process's clients are given. */
export const engineCallers: CallerGauge = {
  inProgress: () => underWay,
  limit: () => Math.max(mostSeen, defaultEngineParallelism()),
};
