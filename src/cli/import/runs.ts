/**
 * Pattern detection: nodes whose names follow one numeric pattern (`r01n01`..`r01n30`) and whose
 * values mostly step with the number (ip 10.0.1.1..30) form a run, written as one row of a small
 * data table instead of thirty resources. A node that differs in a few values (a typo, a
 * replaced board's MAC, an extra attribute, another group) stays in its run: what differs is an
 * explicit per-node override, so one odd node does not break a rack into single nodes.
 * Everything that follows no pattern stays a single node.
 */

/** How one attribute varies along a run. */
export type Variation =
  | { readonly kind: "constant"; readonly value: string }
  /** `${prefix}${first + i}` (decimal). */
  | { readonly kind: "step"; readonly prefix: string; readonly first: number }
  /** `${prefix}${hex(first + i)}`, two hex digits (a MAC's last octet). */
  | { readonly kind: "hex"; readonly prefix: string; readonly first: number }
  | { readonly kind: "listed"; readonly values: readonly string[] };

export interface NodeEntry {
  readonly name: string;
  readonly groups: readonly string[];
  /** The node's own attributes (after inheritance reduction). */
  readonly attributes: Readonly<Record<string, string>>;
}

/** What one node of a run has instead of the run's values. */
export interface NodeOverride {
  /** Its groups, when they differ from the run's. */
  readonly groups?: readonly string[];
  /** Attribute → its own value, or null when it has none of the run's value. */
  readonly attributes: Readonly<Record<string, string | null>>;
}

export interface Run {
  /** Name = prefix + number padded to `width` + suffix. */
  readonly prefix: string;
  readonly suffix: string;
  readonly width: number;
  readonly first: number;
  readonly last: number;
  readonly groups: readonly string[];
  readonly attributes: Readonly<Record<string, Variation>>;
  /** The nodes that differ from the run, by name. */
  readonly overrides: Readonly<Record<string, NodeOverride>>;
}

/** Fewer nodes than this in a row stay single: a loop would not be easier to read. */
export const MIN_RUN = 3;

interface Numbered {
  readonly entry: NodeEntry;
  readonly prefix: string;
  readonly number: number;
  readonly width: number;
  readonly suffix: string;
}

/** Splits nodes into runs and single nodes, keeping xCAT's sort order within each. */
export function findRuns(nodes: readonly NodeEntry[]): { runs: Run[]; singles: NodeEntry[] } {
  const buckets = new Map<string, Numbered[]>();
  const singles: NodeEntry[] = [];
  for (const entry of nodes) {
    const match = /^(.*?)(\d+)(\D*)$/.exec(entry.name);
    if (!match) {
      singles.push(entry);
      continue;
    }
    const [, prefix = "", digits = "", suffix = ""] = match;
    const key = JSON.stringify([prefix, suffix, digits.length]);
    const list = buckets.get(key) ?? [];
    list.push({ entry, prefix, number: Number(digits), width: digits.length, suffix });
    buckets.set(key, list);
  }
  const runs: Run[] = [];
  for (const list of buckets.values()) {
    list.sort((a, b) => a.number - b.number);
    let start = 0;
    for (let i = 1; i <= list.length; i++) {
      const current = list[i];
      const previous = list[i - 1];
      if (current !== undefined && previous !== undefined && current.number === previous.number + 1) continue;
      const sequence = list.slice(start, i);
      const run = sequence.length >= MIN_RUN ? asRun(sequence) : undefined;
      if (run) runs.push(run);
      else singles.push(...sequence.map((item) => item.entry));
      start = i;
    }
  }
  const order = new Map(nodes.map((entry, index) => [entry.name, index]));
  singles.sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
  runs.sort((a, b) => runName(a, a.first).localeCompare(runName(b, b.first)));
  return { runs, singles };
}

export function runName(run: Pick<Run, "prefix" | "suffix" | "width">, number: number): string {
  return `${run.prefix}${String(number).padStart(run.width, "0")}${run.suffix}`;
}

/** The names of a run's nodes, in order. */
export function expandRunNames(run: Pick<Run, "prefix" | "suffix" | "width" | "first" | "last">): string[] {
  const names: string[] = [];
  for (let n = run.first; n <= run.last; n++) names.push(runName(run, n));
  return names;
}

/** The value a variation gives the node at `index` of its run. */
export function valueAt(variation: Variation, index: number): string {
  switch (variation.kind) {
    case "constant":
      return variation.value;
    case "step":
      return `${variation.prefix}${variation.first + index}`;
    case "hex":
      return `${variation.prefix}${(variation.first + index).toString(16).padStart(2, "0")}`;
    case "listed":
      return variation.values[index] ?? "";
  }
}

/**
 * A run over `sequence`, or undefined when too few of its nodes follow it: a run is worth a loop
 * only when most of its nodes (at least MIN_RUN, and at least half) need no override.
 */
function asRun(sequence: readonly Numbered[]): Run | undefined {
  const head = sequence[0];
  const tail = sequence[sequence.length - 1];
  if (!head || !tail) return undefined;
  const half = Math.ceil(sequence.length / 2);
  const groups = mostCommon(sequence.map((item) => JSON.stringify(item.entry.groups)));
  const names = new Set(sequence.flatMap((item) => Object.keys(item.entry.attributes)));
  const attributes: Record<string, Variation> = {};
  type Building = { groups?: readonly string[]; attributes: Record<string, string | null> };
  const overrides = new Map<string, Building>();
  const override = (item: Numbered): Building => {
    const existing = overrides.get(item.entry.name);
    if (existing) return existing;
    const created: Building = { attributes: {} };
    overrides.set(item.entry.name, created);
    return created;
  };
  for (const item of sequence) {
    if (JSON.stringify(item.entry.groups) !== groups.value) override(item).groups = item.entry.groups;
  }
  for (const name of [...names].sort()) {
    const values = sequence.map((item) => item.entry.attributes[name]);
    const present = values.filter((value) => value !== undefined).length;
    if (present < half) {
      // Few nodes set it: each of them says so itself.
      sequence.forEach((item, i) => {
        const value = values[i];
        if (value !== undefined) override(item).attributes[name] = value;
      });
      continue;
    }
    const variation = bestVariation(values, half);
    attributes[name] = variation;
    sequence.forEach((item, i) => {
      const value = values[i];
      if (value !== valueAt(variation, i)) override(item).attributes[name] = value ?? null;
    });
  }
  const listed = Object.values(attributes).filter((v) => v.kind === "listed").length;
  // A run whose every attribute is listed is no pattern, just a table of nodes.
  if (listed > 0 && listed === Object.keys(attributes).length) return undefined;
  const regular = sequence.length - overrides.size;
  if (regular < Math.max(MIN_RUN, half)) return undefined;
  return {
    prefix: head.prefix,
    suffix: head.suffix,
    width: head.width,
    first: head.number,
    last: tail.number,
    groups: JSON.parse(groups.value) as string[],
    attributes,
    overrides: Object.fromEntries([...overrides].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

/**
 * The variation most values follow: constant, a decimal step or a hex step, whichever fits the
 * most (at least `enough`); otherwise each value listed, which needs every node to have one.
 */
function bestVariation(values: readonly (string | undefined)[], enough: number): Variation {
  const candidates: Variation[] = [];
  const constant = mostCommon(values.filter((v): v is string => v !== undefined));
  candidates.push({ kind: "constant", value: constant.value });
  const steps: string[] = [];
  const hexes: string[] = [];
  values.forEach((value, i) => {
    if (value === undefined) return;
    const decimal = /^(.*?)(\d+)$/.exec(value);
    if (decimal) steps.push(JSON.stringify([decimal[1] ?? "", Number(decimal[2]) - i]));
    const hex = /^(.*:)([0-9a-f]{2})$/i.exec(value);
    if (hex) hexes.push(JSON.stringify([hex[1] ?? "", Number.parseInt(hex[2] ?? "", 16) - i]));
  });
  if (steps.length > 0) {
    const [prefix, first] = JSON.parse(mostCommon(steps).value) as [string, number];
    if (first >= 0) candidates.push({ kind: "step", prefix, first });
  }
  if (hexes.length > 0) {
    const [prefix, first] = JSON.parse(mostCommon(hexes).value) as [string, number];
    if (first >= 0 && first + values.length <= 256) candidates.push({ kind: "hex", prefix, first });
  }
  let best: { variation: Variation; fits: number } | undefined;
  for (const variation of candidates) {
    const fits = values.filter((value, i) => value === valueAt(variation, i)).length;
    if (best === undefined || fits > best.fits) best = { variation, fits };
  }
  if (best !== undefined && best.fits >= enough && best.fits > 1) return best.variation;
  if (values.every((value) => value !== undefined)) return { kind: "listed", values: values as string[] };
  return { kind: "constant", value: constant.value };
}

/** How a list of values varies with the position in the run (every value must fit). */
export function variationOf(values: readonly string[]): Variation {
  const variation = bestVariation(values, values.length);
  return values.every((value, i) => value === valueAt(variation, i)) ? variation : { kind: "listed", values };
}

function mostCommon(values: readonly string[]): { value: string; count: number } {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = { value: values[0] ?? "", count: 0 };
  for (const [value, count] of counts) if (count > best.count) best = { value, count };
  return best;
}
