/**
 * `pulumi preview --json` → a summary grouped by what changes: identical changes to many objects
 * become one line with a compact noderange. Pure (no I/O), so every change kind is unit-tested.
 *
 * The preview JSON: `{ steps: [{ op, urn, oldState?, newState?, detailedDiff?, diffReasons? }] }`,
 * states carry `type` and `inputs`; a secret input is an object holding the secret signature key
 * `4dabf18193072939515e22adb298388d` (or the string "[secret]"), and is printed as `[secret]`.
 */
import { compareStrings, compressNoderange } from "../../contract/noderange";

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** The kinds of change a review flags, in the order they are listed; each is a `--fail-on` word. */
export const DANGER_KINDS = ["delete", "replace", "reimage", "power", "policy", "site"] as const;
export type DangerKind = (typeof DANGER_KINDS)[number];

/** What each kind reads as after its count: [one, several]. */
const DANGER_TEXT: Record<DangerKind, readonly [string, string]> = {
  delete: ["node deleted", "nodes deleted"],
  replace: [
    "object replaced (deleted first, then created)",
    "objects replaced (deleted first, then created)",
  ],
  reimage: ["node re-imaged by a Deployment", "nodes re-imaged by a Deployment"],
  power: ["node whose power state changes", "nodes whose power state changes"],
  policy: ["policy change", "policy changes"],
  site: ["site attribute change", "site attribute changes"],
};

interface PreviewState {
  readonly type?: string;
  readonly inputs?: Record<string, unknown>;
}
interface PreviewStep {
  readonly op?: string;
  readonly urn?: string;
  readonly type?: string;
  readonly oldState?: PreviewState;
  readonly newState?: PreviewState;
  readonly detailedDiff?: Record<string, unknown> | null;
  readonly diffReasons?: readonly string[] | null;
}

/** One summary line: a change shared by `names`. */
export interface ChangeLine {
  readonly op: "create" | "delete" | "update" | "replace";
  /** Short resource type, e.g. `xcat:Node`. */
  readonly type: string;
  /** What changes: `provmethod: a → b`, or `in group compute` for a create or delete. */
  readonly what: string;
  readonly names: readonly string[];
  readonly noderange: string;
}

export interface DangerCount {
  readonly kind: DangerKind;
  readonly text: string;
  readonly count: number;
  readonly noderange: string;
}

export interface PlanSummary {
  readonly dangers: readonly DangerCount[];
  readonly lines: readonly ChangeLine[];
  readonly counts: { create: number; update: number; replace: number; delete: number; same: number };
}

function shortType(step: PreviewStep): string {
  const type = step.type ?? step.newState?.type ?? step.oldState?.type ?? step.urn?.split("::")[2] ?? "?";
  const last = type.split("$").at(-1) ?? type;
  return last.includes("dynamic/") ? (last.split("dynamic/")[1] ?? last) : last;
}

function objectName(step: PreviewStep): string {
  const inputs = step.newState?.inputs ?? step.oldState?.inputs ?? {};
  const name = inputs.name;
  if (typeof name === "string") return name;
  return step.urn?.split("::").at(-1) ?? "?";
}

function isSecret(value: unknown): boolean {
  return value === "[secret]" || (typeof value === "object" && value !== null && SECRET_SIG in value);
}

/** A value as `pulumi preview` would print it: secrets as `[secret]`, absent as `(none)`. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return "(none)";
  if (isSecret(value)) return "[secret]";
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return `[${value.map(showValue).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${k}: ${showValue(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** `attributes.provmethod` or `groups[0]` in the inputs; a secret anywhere on the way is a secret. */
function valueAt(inputs: Record<string, unknown> | undefined, path: string): unknown {
  let current: unknown = inputs;
  for (const key of path.replace(/\[(\d+)\]/g, ".$1").split(".")) {
    if (isSecret(current)) return current;
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Inputs that are not the resource's own: the host's `__` keys and adopt's preview-only note. */
const isOwnInput = (key: string) => !key.startsWith("__") && key !== "adoptChanges";

const isPlainMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isSecret(value);

/**
 * The input paths that differ between the old and new inputs, one level into maps
 * (`attributes.provmethod`). Pulumi 3.259's `preview --json` gives dynamic resources neither
 * `detailedDiff` nor `diffReasons` (measured on the lab), so the inputs are compared here.
 */
function inputDiffPaths(step: PreviewStep): string[] {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  const paths: string[] = [];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!isOwnInput(key)) continue;
    const old = before[key];
    const next = after[key];
    if (isPlainMap(old) && isPlainMap(next)) {
      for (const sub of new Set([...Object.keys(old), ...Object.keys(next)])) {
        if (JSON.stringify(old[sub]) !== JSON.stringify(next[sub])) paths.push(`${key}.${sub}`);
      }
    } else if (JSON.stringify(old) !== JSON.stringify(next)) paths.push(key);
  }
  return paths;
}

/** The input paths that change: from detailedDiff or diffReasons when the engine gives them, else compared. */
function changedPaths(step: PreviewStep): string[] {
  const paths = Object.keys(step.detailedDiff ?? {});
  const given = paths.length > 0 ? paths : [...(step.diffReasons ?? [])];
  const list = given.length > 0 ? given : inputDiffPaths(step);
  return list.filter(isOwnInput).sort();
}

/** A change of a list of names (a Deployment's `nodes`) as what is added and what is removed. */
function listChange(before: unknown, after: unknown): string | undefined {
  const names = (value: unknown) =>
    Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined;
  const old = names(before);
  const next = names(after);
  if (old === undefined || next === undefined) return undefined;
  const added = next.filter((name) => !old.includes(name));
  const removed = old.filter((name) => !next.includes(name));
  const parts = [
    ...(added.length > 0 ? [`+ ${compressNoderange(added)}`] : []),
    ...(removed.length > 0 ? [`- ${compressNoderange(removed)}`] : []),
  ];
  return parts.length > 0 ? parts.join(", ") : undefined;
}

/** What a changed path reads as in a line: the top-level `attributes.` prefix says nothing. */
function label(path: string): string {
  return path.startsWith("attributes.") ? path.slice("attributes.".length) : path;
}

function membership(step: PreviewStep): string {
  const groups = (step.newState?.inputs ?? step.oldState?.inputs)?.groups;
  if (Array.isArray(groups) && typeof groups[0] === "string") return `in group ${groups[0]}`;
  return "";
}

function dangersOf(_step: PreviewStep, type: string, op: string, paths: readonly string[]): DangerKind[] {
  const kinds: DangerKind[] = [];
  if (op === "delete" && type === "xcat:Node") kinds.push("delete");
  if (op === "replace") kinds.push("replace");
  if (type === "xcat:Deployment" && (op === "create" || op === "replace" || paths.includes("osimage"))) {
    kinds.push("reimage");
  }
  if (type === "xcat:PowerState" && (op === "create" || op === "replace" || paths.includes("power"))) {
    kinds.push("power");
  }
  if (type === "xcat:Policy" && op !== "same") kinds.push("policy");
  if (type === "xcat:GlobalConfAttribute" && op !== "same") kinds.push("site");
  return kinds;
}

/** The nodes a Deployment or PowerState acts on, or the object itself. */
function affectedNames(step: PreviewStep, type: string): string[] {
  const nodes = (step.newState?.inputs ?? step.oldState?.inputs)?.nodes;
  if ((type === "xcat:Deployment" || type === "xcat:PowerState") && Array.isArray(nodes)) {
    return nodes.filter((n): n is string => typeof n === "string");
  }
  return [objectName(step)];
}

/** Groups the steps of a preview by what they change. */
export function summarizePlan(preview: unknown): PlanSummary {
  const steps = ((preview as { steps?: PreviewStep[] } | null)?.steps ?? []) as PreviewStep[];
  const counts = { create: 0, update: 0, replace: 0, delete: 0, same: 0 };
  const groups = new Map<string, { op: ChangeLine["op"]; type: string; what: string; names: string[] }>();
  const danger = new Map<DangerKind, Set<string>>();
  const add = (op: ChangeLine["op"], type: string, what: string, name: string) => {
    const key = JSON.stringify([op, type, what]);
    const group = groups.get(key) ?? { op, type, what, names: [] };
    group.names.push(name);
    groups.set(key, group);
  };
  for (const step of steps) {
    const op = step.op ?? "same";
    const type = shortType(step);
    if (type.startsWith("pulumi:")) continue; // the stack and providers are not cluster objects
    if (op === "same" || op === "read" || op === "refresh") {
      counts.same++;
      continue;
    }
    // A replacement shows as replace plus create-replacement and delete-replaced: count it once.
    if (op !== "create" && op !== "delete" && op !== "update" && op !== "replace") continue;
    counts[op]++;
    const paths = changedPaths(step);
    const name = objectName(step);
    for (const kind of dangersOf(step, type, op, paths)) {
      const set = danger.get(kind) ?? new Set<string>();
      for (const n of affectedNames(step, type)) set.add(n);
      danger.set(kind, set);
    }
    if (op === "update") {
      for (const path of paths) {
        const oldValue = valueAt(step.oldState?.inputs, path);
        const newValue = valueAt(step.newState?.inputs, path);
        const change = listChange(oldValue, newValue) ?? `${showValue(oldValue)} → ${showValue(newValue)}`;
        add(op, type, `${label(path)}: ${change}`, name);
      }
      if (paths.length === 0) add(op, type, "changed", name);
    } else if (op === "replace") {
      add(op, type, paths.length > 0 ? `because ${paths.map(label).join(", ")} changed` : "", name);
    } else {
      add(op, type, membership(step), name);
    }
  }
  const lines: ChangeLine[] = [...groups.values()].map((g) => ({
    ...g,
    names: [...g.names].sort(),
    noderange: compressNoderange(g.names),
  }));
  const order = { delete: 0, replace: 1, update: 2, create: 3 };
  lines.sort(
    (a, b) =>
      order[a.op] - order[b.op] ||
      b.names.length - a.names.length ||
      compareStrings(a.type, b.type) ||
      compareStrings(a.noderange, b.noderange) ||
      compareStrings(a.what, b.what),
  );
  const dangers = DANGER_KINDS.filter((kind) => danger.has(kind)).map((kind) => {
    const names = danger.get(kind) ?? new Set<string>();
    return {
      kind,
      text: DANGER_TEXT[kind][names.size === 1 ? 0 : 1],
      count: names.size,
      noderange: compressNoderange(names),
    };
  });
  // Unchanged resources are not listed as steps in `preview --json`, only counted.
  const summary = (preview as { changeSummary?: { same?: unknown } } | null)?.changeSummary;
  if (typeof summary?.same === "number") counts.same = summary.same;
  return { dangers, lines, counts };
}
