/**
 * A running (or ended) `pulumi up` as its engine event log tells it (`pulumi up --event-log FILE`,
 * one JSON event a line, written as the engine emits them): which Deployments the update started,
 * which finished, failed or never finished, and whether the update was cancelled or has ended.
 * The view reads the file once per tick (`pulumi-xcat view --event-log FILE`) to tell apart what
 * the checkpoint and the management node cannot: a node waiting for a Deployment's image because
 * the roll has not reached it yet (queued) or because the roll will not reach it (the up was
 * cancelled, or the roll stopped after failures).
 *
 * The events read (Pulumi sdk v3.259.0 go/common/apitype/events.go): `resourcePreEvent` (a step
 * starts; its `metadata.new` carries the inputs, secrets as `[secret]`), `resOutputsEvent` (the
 * step ended, with the outputs: a Deployment's `nodeStates`), `resOpFailedEvent` (the step
 * failed), `cancelEvent` (the engine was asked to stop: Ctrl-C), `summaryEvent` (the update
 * ended; written last). Nothing the provider prints (its progress lines) is parsed: they are
 * words for people, and they change. Pure.
 */
import { eventLogEvents } from "../event-log";
import { kindOf, nameOfUrn } from "../stack-resources";

/** One Deployment step of the update. */
export interface DeploymentStep {
  /** The resource's name in the program. */
  readonly name: string;
  readonly urn: string;
  /** The engine's operation: `create`, `update`, `create-replacement`, … */
  readonly op: string;
  /** The image it deploys (its `osimage` input), when the event carries it in plain text. */
  readonly osimage?: string;
  /** `running` until its outputs or its failure are logged. */
  readonly phase: "running" | "done" | "failed";
  /** Per node, whether the step's outputs record it deployed (a done step only). */
  readonly deployed?: ReadonlyMap<string, boolean>;
}

export interface UpProgress {
  /** The engine logged a cancel (Ctrl-C in the shell running `up`). */
  readonly cancelled: boolean;
  /** The update ended (its summary is logged). */
  readonly ended: boolean;
  /** The Deployment steps, by URN, in the order they started. */
  readonly deployments: ReadonlyMap<string, DeploymentStep>;
  /** The last event's time (Unix seconds), 0 for an empty log. */
  readonly lastEventAt: number;
  /** Events read (lines that parsed). */
  readonly events: number;
  /** True when the log is a preview's (`pulumi preview --event-log`): its steps change nothing. */
  readonly preview: boolean;
}

interface StepState {
  readonly type?: string;
  readonly urn?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}
interface StepMetadata {
  readonly op?: string;
  readonly urn?: string;
  readonly type?: string;
  readonly new?: StepState | null;
  readonly old?: StepState | null;
}

function isDeployment(metadata: StepMetadata): boolean {
  const view = {
    ...(metadata.urn !== undefined ? { urn: metadata.urn } : {}),
    ...(metadata.type !== undefined ? { type: metadata.type } : {}),
    ...(metadata.new ? { newState: metadata.new } : {}),
  };
  return kindOf(view) === "xcat:Deployment";
}

/** A step that changes nothing on the server, whose events say nothing of a roll. */
const NO_CHANGE = new Set([
  "same",
  "read",
  "refresh",
  "discard",
  "delete",
  "delete-replaced",
  "remove-pending-replace",
]);

function deployedOf(outputs: Record<string, unknown> | undefined): Map<string, boolean> | undefined {
  const states = outputs?.nodeStates;
  if (typeof states !== "object" || states === null) return undefined;
  const deployed = new Map<string, boolean>();
  for (const [node, state] of Object.entries(states as Record<string, unknown>)) {
    deployed.set(node, (state as { deployed?: unknown } | null)?.deployed === true);
  }
  return deployed;
}

/**
 * The update's progress from the event log's text. A line that is not JSON (the last line while
 * the engine is writing it) is skipped: the next tick reads it whole.
 */
export function parseUpEvents(text: string): UpProgress {
  const deployments = new Map<string, DeploymentStep>();
  let cancelled = false;
  let ended = false;
  let preview = false;
  let lastEventAt = 0;
  let events = 0;
  for (const event of eventLogEvents(text)) {
    events++;
    if (typeof event.timestamp === "number") lastEventAt = Math.max(lastEventAt, event.timestamp);
    if (event.cancelEvent !== undefined) cancelled = true;
    const summary = event.summaryEvent as { isPreview?: boolean } | undefined;
    if (summary !== undefined) {
      ended = true;
      if (summary.isPreview === true) preview = true;
    }
    const pre = (event.resourcePreEvent as { metadata?: StepMetadata; planning?: boolean } | undefined)
      ?.metadata;
    if (pre?.urn !== undefined && isDeployment(pre) && !NO_CHANGE.has(pre.op ?? "same")) {
      const osimage = pre.new?.inputs?.osimage;
      deployments.set(pre.urn, {
        name: nameOfUrn(pre.urn),
        urn: pre.urn,
        op: pre.op ?? "?",
        ...(typeof osimage === "string" && osimage !== "[secret]" ? { osimage } : {}),
        phase: "running",
      });
    }
    const done = (event.resOutputsEvent as { metadata?: StepMetadata } | undefined)?.metadata;
    const known = done?.urn !== undefined ? deployments.get(done.urn) : undefined;
    if (done && known) {
      const deployed = deployedOf(done.new?.outputs);
      deployments.set(known.urn, { ...known, phase: "done", ...(deployed ? { deployed } : {}) });
    }
    const failed = (event.resOpFailedEvent as { metadata?: StepMetadata } | undefined)?.metadata;
    const knownFailed = failed?.urn !== undefined ? deployments.get(failed.urn) : undefined;
    if (knownFailed) deployments.set(knownFailed.urn, { ...knownFailed, phase: "failed" });
  }
  return { cancelled, ended, deployments, lastEventAt, events, preview };
}

/** Where the roll stands for one node the stack's Deployment wants another image on. */
export type RollPosition =
  /** The up runs and the Deployment's step is under way: the roll has not reached the node yet. */
  | "queued"
  /** The up was cancelled before the Deployment's step deployed the node. */
  | "not-reached-cancelled"
  /** The Deployment's step failed (a roll stops after maxFailures) or the up ended without it deploying the node. */
  | "not-reached-stopped";

/**
 * Where the roll stands for a node waiting for `deployment`'s image, or undefined when the event
 * log says nothing of that Deployment (the view then says "waiting", as without a log).
 */
export function rollPosition(
  progress: UpProgress,
  deployment: string,
  node: string,
): RollPosition | undefined {
  if (progress.preview) return undefined;
  const step = [...progress.deployments.values()].reverse().find((known) => known.name === deployment);
  if (step === undefined) return undefined;
  if (step.phase === "running" && !progress.cancelled && !progress.ended) return "queued";
  if (step.phase === "done" && step.deployed?.get(node) === true) return undefined;
  return progress.cancelled ? "not-reached-cancelled" : "not-reached-stopped";
}

/** The sentence the page and the terminal show about the followed up (`file` as the user gave it). */
export function upNote(progress: UpProgress | undefined, file: string): string {
  if (progress === undefined || progress.events === 0) {
    return `Following the event log ${file}: nothing logged yet (start the up with PULUMI_DEBUG_COMMANDS=true pulumi up --event-log ${file}).`;
  }
  if (progress.preview) return `The event log ${file} is a preview's: it says nothing of a roll.`;
  const at = new Date(progress.lastEventAt * 1000).toISOString();
  const steps = [...progress.deployments.values()];
  const count = (phase: DeploymentStep["phase"]) => steps.filter((step) => step.phase === phase).length;
  const deployments =
    steps.length === 0
      ? "no Deployment step yet"
      : `Deployment steps: ${count("running")} under way, ${count("done")} done, ${count("failed")} failed`;
  const where = progress.ended
    ? `the up ended${progress.cancelled ? " after a cancel" : ""} (last event ${at})`
    : progress.cancelled
      ? `the up was cancelled and is finishing (last event ${at})`
      : `an up is running (last event ${at})`;
  return `Following the event log ${file}: ${where}; ${deployments}.`;
}
