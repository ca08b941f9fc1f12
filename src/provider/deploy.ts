/**
 * Deploying an OS image onto nodes, the way an xCAT admin does it by hand, batch by batch:
 * `nodeset <range> osimage=<image>`, `rsetboot <range> net`, `rpower <range> boot`, then watching
 * the nodes' `status` until each reports `booted` or `failed`, or the time is up.
 *
 * Cost: three noderange PUTs per batch for the actions, and while a batch is booting one
 * `GET /nodes/<range>/attrs/status,statustime` per poll interval (so at most `concurrency` GETs
 * per interval). Progress goes to `report` whenever a batch's counts change.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { isCancelled, isXcatError, type XcatClient } from "../client";
import { nodesetRunsMakedhcp } from "./name-services";
import { compactNoderange } from "./node-batches";
import { siteServicesOf } from "./node-name-services";
import { rollPhases, stopReason } from "./roll-plan";
import { stuckLine } from "./stuck-nodes";

/** What became of one node. */
export interface NodeState {
  /** The node's last `status` (nodelist.status), or what stopped the deployment on it. */
  readonly status: string;
  /** When the node reached it (nodelist.statustime, `MM-DD-YYYY HH:MM:SS`), "" when unknown. */
  readonly statusTime: string;
  /** The image the node was deployed with (nodetype.provmethod). */
  readonly osimage: string;
  /** Whether the node is done: it booted the image (or, with waitFor "none", was sent to boot it). */
  readonly deployed: boolean;
}

export interface DeployPlan {
  /** The nodes in the order they go (see rollOrder). */
  readonly nodes: readonly string[];
  readonly osimage: string;
  readonly waitFor: "booted" | "none";
  readonly batchSize: number;
  /** Batches deployed at the same time. */
  readonly concurrency: number;
  /** The first nodes that must all boot before any other node starts. */
  readonly canary: number;
  /** No new batch starts once this many nodes of the roll have failed. */
  readonly maxFailures: number;
  readonly timeoutMs: number;
  readonly pollMs: number;
  /**
   * Aborted when the engine asks to cancel: no new batch starts, and the batches in flight are
   * watched for `cancelGraceMs` more, then their unfinished nodes are recorded as not deployed.
   */
  readonly signal?: AbortSignal;
  /** How long after a cancel the batches in flight are still watched (0: one last read). */
  readonly cancelGraceMs: number;
  /** After how long without a status change a batch's nodes are examined for why they may be stuck. */
  readonly stuckMs: number;
}

/** What a roll did: every started node's state, and the nodes it did not start and why. */
export interface DeployOutcome {
  readonly states: Map<string, NodeState>;
  readonly notStarted: readonly string[];
  /** Why the roll stopped before its end; absent when every node was started. */
  readonly stopped?: string;
}

/**
 * Waits `ms`, or less when `signal` aborts during the wait (it is not an error here: the caller
 * decides what a cancel means). An already aborted signal waits the full time.
 */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (!signal || signal.aborted) {
    await sleep(ms);
    return;
  }
  const wake = new AbortController();
  const onAbort = () => wake.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    await sleep(ms, undefined, { signal: wake.signal });
  } catch {
    // Woken by the cancel.
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** Longest time between two progress lines of a batch. */
const HEARTBEAT_MS = 60_000;

/** Statuses after which a node will not reach `booted` without a new boot. */
const FINAL_FAILURES = new Set(["failed"]);

/** One line of counts per status, e.g. `r01n[01-16]: installing 12, booted 4`. */
export function progressLine(range: string, statuses: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const status of statuses) counts.set(status || "unknown", (counts.get(status || "unknown") ?? 0) + 1);
  return `${range}: ${[...counts].map(([status, count]) => `${status} ${count}`).join(", ")}`;
}

/** The lines of an xCAT error that name `node` (`node: message`), as xCAT reports per-node failures. */
function linesAbout(error: unknown, node: string): string[] {
  const messages = isXcatError(error) ? error.messages : [];
  return messages.filter((line) => line.startsWith(`${node}:`));
}

/**
 * Deploys `plan.osimage` onto `plan.nodes`, batch by batch, canary phase first, and returns what
 * became of each node. Never throws for a node's failure: failed nodes come back with
 * `deployed: false` and their last status. Before each batch it asks {@link stopReason}: after a
 * cancel, a failed canary, `maxFailures` failures or the deadline no new batch starts; the
 * batches in flight still run to their end (up to the deadline) and are reported. After a
 * cancel they are watched for `cancelGraceMs` more: nodes that boot by then are recorded as
 * deployed, the others as not deployed in the status last read (a native provider's Cancel cuts
 * off the client's requests only once that grace period is over, cancel-grace.ts).
 */
export async function deploy(
  client: XcatClient,
  plan: DeployPlan,
  report: (line: string) => void,
): Promise<DeployOutcome> {
  return deployWith(xcatSteps(client), plan, report);
}

/** A node's progress as a backend reads it; `outcome` once it is over. */
export interface NodeProgress {
  readonly status: string;
  readonly statusTime: string;
  readonly outcome?: "booted" | "failed";
}

/**
 * How a backend starts a batch and reads its progress; the roll around them (batches, canary,
 * stops, timeouts, progress lines) is the same on every backend.
 */
export interface DeploySteps {
  /** The actions of a start, for the progress line: "nodeset, rsetboot net, rpower boot". */
  readonly actions: string;
  /** Starts the deployment of `osimage` on the nodes; answers the nodes it failed on and why. */
  start(nodes: readonly string[], osimage: string): Promise<Map<string, string>>;
  progress(nodes: readonly string[], osimage: string): Promise<Map<string, NodeProgress>>;
  /**
   * Why nodes whose status has not changed for a while may be stuck, from what the server
   * reports about them: one line per node that has a likely cause. Reads only.
   */
  whyStuck?(nodes: ReadonlyMap<string, NodeProgress>, minutes: number): Promise<string[]>;
}

/** xCAT's steps: nodeset, rsetboot net, rpower boot; progress in nodelist.status. */
export function xcatSteps(client: XcatClient): DeploySteps {
  return {
    actions: "nodeset, rsetboot net, rpower boot",
    async start(batch, osimage) {
      const refused = new Map<string, string>();
      // A per-node error (a node without a BMC, say) answers 403 for the whole range, yet xCAT
      // acted on the other nodes (xcat-behavior.md §3.2): drop the nodes it names and go on.
      let active = [...batch];
      for (const [what, action] of [
        ["nodeset", () => client.nodes.setBootstate(compactNoderange(active), { osimage })],
        ["rsetboot", () => client.nodes.setNextboot(compactNoderange(active), "net")],
        ["rpower", () => client.nodes.setPower(compactNoderange(active), "boot")],
      ] as const) {
        if (active.length === 0) break;
        try {
          await action();
        } catch (error) {
          const named = active.filter((node) => linesAbout(error, node).length > 0);
          const message = error instanceof Error ? error.message : String(error);
          const failing = named.length > 0 ? named : active;
          for (const node of failing) {
            const lines = linesAbout(error, node);
            refused.set(node, `${what} failed: ${lines.length > 0 ? lines.join("; ") : message}`);
          }
          active = active.filter((node) => !failing.includes(node));
        }
      }
      return refused;
    },
    async progress(nodes) {
      const read = await client.nodes.getMany(compactNoderange(nodes), { attrs: ["status", "statustime"] });
      return new Map(
        nodes.map((node) => {
          const status = read.get(node)?.status ?? "";
          const statusTime = read.get(node)?.statustime ?? "";
          const outcome = status === "booted" ? "booted" : FINAL_FAILURES.has(status) ? "failed" : undefined;
          return [node, { status, statusTime, ...(outcome ? { outcome } : {}) }] as const;
        }),
      );
    },
    async whyStuck(progress, minutes) {
      const nodes = [...progress.keys()];
      const range = compactNoderange(nodes);
      const [attributes, power, site] = await Promise.all([
        client.nodes.getMany(range, { attrs: ["mac", "ip"] }),
        // rpower stat asks each BMC; a node it cannot ask is simply not judged on power.
        client.nodes.getPower(range).catch(() => ({}) as Record<string, string>),
        siteServicesOf(client),
      ]);
      return nodes.flatMap((node) => {
        const seen = progress.get(node);
        const line = stuckLine(
          {
            node,
            status: seen?.status ?? "",
            statusTime: seen?.statusTime ?? "",
            power: (power as Record<string, string | undefined>)[node],
            mac: attributes.get(node)?.mac ?? "",
            ip: attributes.get(node)?.ip ?? "",
            dhcpByXcat: nodesetRunsMakedhcp(site),
          },
          minutes,
        );
        return line === undefined ? [] : [line];
      });
    },
  };
}

/** The roll of {@link deploy}, with a backend's steps. */
export async function deployWith(
  steps: DeploySteps,
  plan: DeployPlan,
  report: (line: string) => void,
): Promise<DeployOutcome> {
  const states = new Map<string, NodeState>();
  const deadline = Date.now() + plan.timeoutMs;
  const phases = rollPhases(plan.nodes, plan);
  const failed = (status: string, statusTime = ""): NodeState => ({
    status,
    statusTime,
    osimage: plan.osimage,
    deployed: false,
  });
  let inFlight = 0;
  let stopped: string | undefined;
  let failedCanaries: string[] = [];
  /** When the cancel arrived: the batches in flight are watched until `cancelGraceMs` after it. */
  let cancelledAt: number | undefined;
  const graceSeconds = Math.round(plan.cancelGraceMs / 100) / 10;
  const onCancel = () => {
    cancelledAt = Date.now();
    report(
      `cancel received: no new batch starts (${inFlight} batch(es) in flight)` +
        (inFlight > 0 && plan.waitFor === "booted"
          ? `; watching them for ${graceSeconds} s more (cancelGraceSeconds), then their unfinished nodes are ` +
            "recorded as not deployed"
          : ""),
    );
  };
  if (plan.signal?.aborted) cancelledAt = Date.now();
  else plan.signal?.addEventListener("abort", onCancel, { once: true });
  const mayStart = (): boolean => {
    stopped ??= stopReason({
      cancelled: plan.signal?.aborted === true,
      timedOut: Date.now() >= deadline,
      failures: [...states.values()].filter((state) => !state.deployed).length,
      maxFailures: plan.maxFailures,
      failedCanaries,
    });
    return stopped === undefined;
  };
  /** The end of the watch: the deadline, or the grace period after a cancel. */
  const watchEnd = () =>
    cancelledAt === undefined ? deadline : Math.min(deadline, cancelledAt + plan.cancelGraceMs);

  const runBatch = async (batch: readonly string[]) => {
    const range = compactNoderange(batch);
    const refused = await steps.start(batch, plan.osimage);
    for (const [node, why] of refused) states.set(node, failed(why));
    const active = batch.filter((node) => !refused.has(node));
    if (active.length === 0) return;
    report(`${range}: ${plan.osimage} sent to ${active.length} node(s) (${steps.actions})`);
    if (plan.waitFor === "none") {
      for (const node of active) {
        states.set(node, { status: "powering-on", statusTime: "", osimage: plan.osimage, deployed: true });
      }
      return;
    }
    const pending = new Set(active);
    const last = new Map<string, NodeProgress>();
    let reported = "";
    let reportedAt = Date.now();
    const started = Date.now();
    /** The statuses last seen and since when they have not changed, for the stuck check. */
    let unchanged = "";
    let unchangedSince = Date.now();
    let stuckReported = false;
    let cutOff = false;
    while (pending.size > 0 && !cutOff) {
      const left = watchEnd() - Date.now();
      if (left <= 0) break;
      // A cancel wakes the wait: with a short grace period the last read comes when it ends.
      await pause(Math.min(plan.pollMs, left), plan.signal);
      let read: Map<string, NodeProgress>;
      try {
        read = await steps.progress([...pending], plan.osimage);
      } catch (error) {
        // The client's requests were cancelled: nothing more can be read.
        if (isCancelled(error)) {
          cutOff = true;
          break;
        }
        // The client already retried transient failures; keep watching until the deadline
        // rather than lose what the other nodes did.
        report(
          `${range}: reading the status failed (${error instanceof Error ? error.message : error}); trying again`,
        );
        continue;
      }
      for (const node of [...pending]) {
        const progress = read.get(node) ?? { status: "", statusTime: "" };
        const { status, statusTime, outcome } = progress;
        last.set(node, progress);
        if (outcome === "booted") {
          states.set(node, { status, statusTime, osimage: plan.osimage, deployed: true });
          pending.delete(node);
        } else if (outcome === "failed") {
          states.set(node, failed(status, statusTime));
          pending.delete(node);
        }
      }
      const line = progressLine(
        range,
        active.map((node) => states.get(node)?.status ?? last.get(node)?.status ?? ""),
      );
      // A new line whenever the counts change, and a reminder at least every minute of a long
      // install, so a wait is never silent.
      if (line !== reported || Date.now() - reportedAt >= HEARTBEAT_MS) {
        const waited = Math.round((Date.now() - started) / 1000);
        report(line === reported ? `${line} (still waiting, ${waited} s)` : line);
        reported = line;
        reportedAt = Date.now();
      }
      // Nodes that have not moved for stuckMs: once per standstill, what the server says may hold them.
      const seen = [...pending].map(
        (node) => `${node}=${last.get(node)?.status}@${last.get(node)?.statusTime}`,
      );
      if (seen.join(",") !== unchanged) {
        unchanged = seen.join(",");
        unchangedSince = Date.now();
        stuckReported = false;
      } else if (!stuckReported && steps.whyStuck && Date.now() - unchangedSince >= plan.stuckMs) {
        stuckReported = true;
        const minutes = Math.round((Date.now() - unchangedSince) / 6_000) / 10;
        const waiting = new Map([...pending].map((node) => [node, last.get(node) as NodeProgress]));
        try {
          for (const stuck of await steps.whyStuck(waiting, minutes)) report(stuck);
        } catch (error) {
          if (isCancelled(error)) break;
          report(
            `${range}: could not read why it may be stuck (${error instanceof Error ? error.message : error})`,
          );
        }
      }
    }
    const minutes = Math.round((plan.timeoutMs / 60_000) * 100) / 100;
    const graceEnded = cancelledAt !== undefined && Date.now() < deadline;
    for (const node of pending) {
      const seen = last.get(node);
      const where = `in status ${seen?.status || "unknown"}`;
      const why = cutOff
        ? `cancelled while watching it ${where}`
        : graceEnded
          ? `cancelled: still ${where} ${graceSeconds} s after the cancel (cancelGraceSeconds)`
          : `timed out after ${minutes} min ${where}`;
      states.set(node, failed(why, seen?.statusTime ?? ""));
    }
  };

  const runPhase = async (queue: string[][]) => {
    const workers = Array.from({ length: Math.min(plan.concurrency, queue.length) }, async () => {
      while (queue.length > 0 && mayStart()) {
        const batch = queue.shift() ?? [];
        inFlight += 1;
        try {
          await runBatch(batch);
        } finally {
          inFlight -= 1;
        }
      }
    });
    await Promise.all(workers);
  };

  try {
    const canaries = phases.canary.flat();
    await runPhase([...phases.canary]);
    failedCanaries = canaries.filter((node) => states.get(node)?.deployed !== true);
    await runPhase([...phases.rest]);
    // A stop decided after the last batch had started changes nothing: every node was started.
    const notStarted = plan.nodes.filter((node) => !states.has(node));
    if (notStarted.length === 0) return { states, notStarted };
    const reason = stopped ?? "the roll stopped";
    report(`stopped: ${reason}; ${notStarted.length} node(s) not started: ${compactNoderange(notStarted)}`);
    return { states, notStarted, stopped: reason };
  } finally {
    plan.signal?.removeEventListener("abort", onCancel);
  }
}

/**
 * The failure message of a roll that did not deploy every node: why it stopped early (if it
 * did), each node that failed and its last status, and which nodes were not started.
 */
export function failureSummary(kind: string, outcome: DeployOutcome, osimage: string): string {
  const failedNodes = [...outcome.states].filter(([, state]) => !state.deployed);
  const done = [...outcome.states].filter(([, state]) => state.deployed).map(([node]) => node);
  const total = outcome.states.size + outcome.notStarted.length;
  const shown = failedNodes.slice(0, 50).map(([node, state]) => {
    const when = state.statusTime ? ` since ${state.statusTime}` : "";
    return `${node}: ${state.status}${when}`;
  });
  const more = failedNodes.length > shown.length ? `; and ${failedNodes.length - shown.length} more` : "";
  const parts: string[] = [];
  if (outcome.stopped !== undefined) parts.push(`${kind}: the roll stopped early: ${outcome.stopped}.`);
  if (failedNodes.length > 0) {
    const lead = outcome.stopped === undefined ? `${kind}: ` : "";
    parts.push(
      `${lead}${failedNodes.length} of ${total} node(s) did not boot ${osimage}: ${shown.join("; ")}${more}.`,
    );
  }
  if (outcome.notStarted.length > 0) {
    parts.push(
      `${outcome.notStarted.length} node(s) were not started and keep their previous image: ` +
        `${compactNoderange(outcome.notStarted)}.`,
    );
  }
  const booted = done.length > 0 ? ` (${compactNoderange(done)})` : "";
  parts.push(
    `The ${done.length} node(s) that booted ${osimage}${booted} are recorded as done; ` +
      `the next pulumi up deploys only the other ${total - done.length}.`,
  );
  return parts.join(" ");
}
