/**
 * What the view says of one node: one state (its colour, its word on the drawing and in the
 * legend) and the facts behind it, from what the management node reports and what the stack's
 * state holds. Pure.
 *
 * The state, first that applies:
 * - failed: xCAT's node `status` is `failed` (the installer or the boot reported failure);
 * - deploying: `status` is one a boot passes through (powering-on, installing, netbooting,
 *   booting, postbooting, configuring: GlobalDef.pm's values, xcat-behavior.md §10);
 * - waiting: a Deployment of the stack wants image X and the node's own `provmethod` is not X:
 *   queued in a running roll, or not reached (a cancel, a stop after failures) — the management
 *   node cannot tell the two apart, and the view does not pretend to. Own, not inherited: nodeset
 *   writes the image into the node's own nodetype row (destiny.pm:294-319, as deployment-adopt.ts
 *   reads it), while a group's provmethod (the lab's `compute` sets one) reaches every member
 *   before any was deployed (seen on the lab mid-up: every node showed the image it had not run).
 *   With the engine's event log of the running `up` (up-events.ts) the two are told apart: the
 *   roll's step is under way → "queued for X" (still waiting);
 * - not reached: the event log says the up was cancelled, or the Deployment's step failed or
 *   ended, without deploying the node: the roll will not come to it until the next `up`;
 * - off: the power read says off;
 * - booted: `status` booted or alive (on the image a Deployment wants, when one does);
 * - unknown: anything else (defined, no status), with the status shown.
 * Two marks go on top of the state, each with its own outline and word so they read without
 * colour: "not under code" (no Node or NodeSet resource of the stack holds it) and "drift" (the
 * management node now holds other values than the stack recorded for the node's attributes at its
 * last `up` or `refresh`: changed by hand since; stack-nodes.ts says why not the program's values).
 */
import type { RollPosition } from "./up-events";

/** The states, in the order of the legend. */
export const NODE_STATES = [
  "failed",
  "deploying",
  "waiting",
  "not-reached",
  "off",
  "booted",
  "unknown",
] as const;
export type NodeStateKey = (typeof NODE_STATES)[number];

/** Colour and words of each state; the words are on every node, so the colour is never alone. */
export const STATE_STYLE: Readonly<Record<NodeStateKey, { fill: string; text: string; legend: string }>> = {
  failed: { fill: "#c62828", text: "#ffffff", legend: "failed: xCAT status failed" },
  deploying: { fill: "#f9a825", text: "#000000", legend: "deploying: installing, netbooting, booting" },
  waiting: {
    fill: "#90a4ae",
    text: "#000000",
    legend: "waiting: a Deployment wants another image (queued, or not reached)",
  },
  "not-reached": {
    fill: "#7e57c2",
    text: "#ffffff",
    legend: "not reached: the up was cancelled or the roll stopped before this node (event log)",
  },
  off: { fill: "#424242", text: "#ffffff", legend: "off: power off" },
  booted: { fill: "#2e7d32", text: "#ffffff", legend: "booted: status booted or alive" },
  unknown: { fill: "#e0e0e0", text: "#000000", legend: "unknown: no boot status yet" },
};

/** The statuses a node passes through while it boots or installs (GlobalDef.pm). */
const IN_PROGRESS = new Set([
  "powering-on",
  "installing",
  "netbooting",
  "booting",
  "postbooting",
  "configuring",
]);
const UP = new Set(["booted", "alive"]);

/** A node's attribute as xCAT gives it, with the group it is inherited from. */
export interface ShownValue {
  readonly value: string;
  readonly from?: string;
}

/** A stack resource that holds or acts on the node. */
export interface NodeResource {
  /** `xcat:Node`, `xcat:NodeSet`, `xcat:Deployment`, `xcat:PowerState`. */
  readonly kind: string;
  /** The resource's name in the program. */
  readonly name: string;
}

/**
 * Where a node's boot stands as its server reports it, backend-neutral: xCAT's node status
 * ({@link xcatBoot}) or Confluent's deployment attributes (confluent-nodes.ts confluentBoot).
 */
export interface BootReport {
  /** failed, deploying (a boot or install under way), up (booted, or deployed), none (nothing known). */
  readonly phase: "failed" | "deploying" | "up" | "none";
  /** The words drawn on the node for that phase (`netbooting`, `booted rocky9`, `staged rocky-9.4`). */
  readonly label: string;
  /** The image (xCAT) or profile (Confluent) the node itself holds, "" when none: compared with a Deployment's. */
  readonly image: string;
  /** Panel lines before the power line (status and its time). */
  readonly statusFacts: readonly string[];
  /** Panel lines after the power line (the image and where it comes from). */
  readonly imageFacts: readonly string[];
}

/** Which server the node is on; the words of the legend differ (STATE_LEGEND_CONFLUENT). */
export type Backend = "xcat" | "confluent";

/** The legend's words where Confluent's states differ from xCAT's (confluent-nodes.ts says why). */
export const STATE_LEGEND_CONFLUENT: Readonly<Partial<Record<NodeStateKey, string>>> = {
  failed: "failed: Confluent's deployment.state failed",
  deploying: "deploying: a profile pending or staged (deployment.pendingprofile, stagedprofile)",
  booted: "deployed: deployment.profile completed (Confluent has no status of the running OS)",
  unknown: "unknown: no deployment recorded, so Confluent reports no boot state",
};

/** The legend's words of a state on a backend. */
export function stateLegend(state: NodeStateKey, backend: Backend = "xcat"): string {
  return (backend === "confluent" ? STATE_LEGEND_CONFLUENT[state] : undefined) ?? STATE_STYLE[state].legend;
}

/** xCAT's boot report from a node's values: `status` (GlobalDef.pm's words), `statustime`, `appstatus`, own `provmethod`. */
export function xcatBoot(values: Readonly<Record<string, ShownValue>>): BootReport {
  const status = values.status?.value.trim() ?? "";
  const provmethod = values.provmethod?.value.trim() ?? "";
  const inheritedFrom = values.provmethod?.from;
  const ownImage = inheritedFrom === undefined ? provmethod : "";
  const phase =
    status === "failed" ? "failed" : IN_PROGRESS.has(status) ? "deploying" : UP.has(status) ? "up" : "none";
  const label =
    phase === "failed"
      ? "failed"
      : phase === "deploying"
        ? status
        : phase === "up"
          ? ownImage === ""
            ? status
            : `${status} ${ownImage}`
          : status === ""
            ? "no status"
            : status;
  return {
    phase,
    label,
    image: ownImage,
    statusFacts: [
      `status: ${status === "" ? "(none)" : status}${values.statustime?.value ? ` since ${values.statustime.value}` : ""}`,
      ...(values.appstatus?.value ? [`appstatus: ${values.appstatus.value}`] : []),
    ],
    imageFacts: [
      `image (provmethod): ${provmethod === "" ? "(none)" : provmethod}${
        inheritedFrom !== undefined && provmethod !== ""
          ? ` (from group ${inheritedFrom}: not yet set on the node by nodeset)`
          : ""
      }`,
    ],
  };
}

export interface NodeStateInput {
  readonly name: string;
  /** The node's values (see {@link ShownValue}); `status`, `appstatus`, `provmethod` are read when `boot` is absent. */
  readonly values?: Readonly<Record<string, ShownValue>>;
  /** The boot as the server reports it; default {@link xcatBoot} of `values`. */
  readonly boot?: BootReport;
  /** The server's backend (the legend's words); default xcat. */
  readonly backend?: Backend;
  /** `on`, `off`, or undefined when the power read gave nothing for the node. */
  readonly power?: string;
  /** Why power is not known, when it is not. */
  readonly powerProblem?: string;
  /** The resources of the stack that hold (Node, NodeSet) or act on (Deployment, PowerState) it. */
  readonly resources: readonly NodeResource[];
  /** The image the stack's Deployment of this node wants, and that Deployment's name. */
  readonly wantedImage?: { readonly osimage: string; readonly deployment: string };
  /** Attributes whose value on the management node differs from what the stack last recorded. */
  readonly drift: readonly string[];
  /** Where the running (or ended) up's roll stands for the node, from the event log (up-events.ts). */
  readonly rollPosition?: RollPosition;
  /** What the policy pack's node rules say of the node (policy-marks.ts), each `rule: message`. */
  readonly policy?: readonly string[];
}

export interface NodeView {
  readonly name: string;
  readonly state: NodeStateKey;
  /** The state in a few words, drawn on the node (`booting`, `waiting for rocky9`). */
  readonly label: string;
  readonly underCode: boolean;
  /** The resource that holds the node (`xcat:Node compute-r01n05`), or `not under code`. */
  readonly owner: string;
  readonly drift: readonly string[];
  /** The policy pack's findings on the node, each `rule: message`. */
  readonly policy: readonly string[];
  /** Facts for the detail panel, one per line. */
  readonly facts: readonly string[];
}

const ROLL_WORDS: Readonly<Record<RollPosition, string>> = {
  queued: "under way, this node not reached yet",
  "not-reached-cancelled": "the up was cancelled before it deployed this node",
  "not-reached-stopped": "the Deployment's step failed or ended without deploying this node",
};

const HOLDERS = new Set(["xcat:Node", "xcat:NodeSet"]);

/** The state and words of one node (see the file's comment). */
export function nodeView(input: NodeStateInput): NodeView {
  const boot = input.boot ?? xcatBoot(input.values ?? {});
  const wanted = input.wantedImage;
  const onWanted = wanted === undefined || boot.image === wanted.osimage;
  let state: NodeStateKey;
  let label: string;
  if (boot.phase === "failed") {
    state = "failed";
    label = boot.label;
  } else if (boot.phase === "deploying") {
    state = "deploying";
    label = boot.label;
  } else if (!onWanted && wanted !== undefined && input.rollPosition === "not-reached-cancelled") {
    state = "not-reached";
    label = "not reached (cancelled)";
  } else if (!onWanted && wanted !== undefined && input.rollPosition === "not-reached-stopped") {
    state = "not-reached";
    label = "not reached (roll stopped)";
  } else if (!onWanted && wanted !== undefined) {
    state = "waiting";
    label = `${input.rollPosition === "queued" ? "queued" : "waiting"} for ${wanted.osimage}`;
  } else if (input.power === "off") {
    state = "off";
    label = "off";
  } else if (boot.phase === "up") {
    state = "booted";
    label = boot.label;
  } else {
    state = "unknown";
    label = boot.label;
  }

  const holders = input.resources.filter((resource) => HOLDERS.has(resource.kind));
  const underCode = holders.length > 0;
  const owner = underCode
    ? holders.map((resource) => `${resource.kind} ${resource.name}`).join(", ")
    : "not under code";
  const actors = input.resources.filter((resource) => !HOLDERS.has(resource.kind));
  const facts = [
    `state: ${stateLegend(state, input.backend)}`,
    ...boot.statusFacts,
    `power: ${input.power ?? `unknown${input.powerProblem ? ` (${input.powerProblem})` : ""}`}`,
    ...boot.imageFacts,
    ...(wanted ? [`wanted by Deployment ${wanted.deployment}: ${wanted.osimage}`] : []),
    ...(input.rollPosition && (state === "waiting" || state === "not-reached")
      ? [`roll (event log of the up): ${ROLL_WORDS[input.rollPosition]}`]
      : []),
    `managed by: ${owner}`,
    ...(actors.length > 0
      ? [`acted on by: ${actors.map((resource) => `${resource.kind} ${resource.name}`).join(", ")}`]
      : []),
    input.drift.length > 0
      ? `drift: changed since the stack last recorded it: ${input.drift.join(", ")}`
      : underCode
        ? "drift: none since the stack last recorded it"
        : "drift: not tracked (not under code)",
    ...(input.policy ?? []).map((finding) => `policy ${finding}`),
  ];
  return {
    name: input.name,
    state,
    label,
    underCode,
    owner,
    drift: input.drift,
    policy: input.policy ?? [],
    facts,
  };
}
