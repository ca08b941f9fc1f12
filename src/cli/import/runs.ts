/**
 * Pattern detection: nodes whose names and values follow one numeric pattern (`r01n01`..`r01n30`
 * with ip 10.0.1.1..30) form a run, written as one row of a small data table instead of thirty
 * resources. Everything else stays a single node.
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

export interface Run {
  /** Name = prefix + number padded to `width` + suffix. */
  readonly prefix: string;
  readonly suffix: string;
  readonly width: number;
  readonly first: number;
  readonly last: number;
  readonly groups: readonly string[];
  readonly attributes: Readonly<Record<string, Variation>>;
}

/** Fewer nodes than this in a row stay single: a loop would not be easier to read. */
export const MIN_RUN = 3;

/** Splits nodes into runs and single nodes, keeping xCAT's sort order within each. */
export function findRuns(nodes: readonly NodeEntry[]): { runs: Run[]; singles: NodeEntry[] } {
  const buckets = new Map<
    string,
    { entry: NodeEntry; prefix: string; number: number; width: number; suffix: string }[]
  >();
  const singles: NodeEntry[] = [];
  for (const entry of nodes) {
    const match = /^(.*?)(\d+)(\D*)$/.exec(entry.name);
    if (!match) {
      singles.push(entry);
      continue;
    }
    const [, prefix = "", digits = "", suffix = ""] = match;
    const key = JSON.stringify([
      prefix,
      suffix,
      digits.length,
      entry.groups,
      Object.keys(entry.attributes).sort(),
    ]);
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

function asRun(
  sequence: readonly { entry: NodeEntry; prefix: string; number: number; width: number; suffix: string }[],
): Run | undefined {
  const head = sequence[0];
  const tail = sequence[sequence.length - 1];
  if (!head || !tail) return undefined;
  const attributes: Record<string, Variation> = {};
  let listed = 0;
  for (const name of Object.keys(head.entry.attributes).sort()) {
    const values = sequence.map((item) => item.entry.attributes[name] ?? "");
    const variation = variationOf(values);
    if (variation.kind === "listed") listed++;
    attributes[name] = variation;
  }
  // A run whose every attribute is listed is no pattern, just a table of nodes.
  if (listed > 0 && listed === Object.keys(attributes).length) return undefined;
  return {
    prefix: head.prefix,
    suffix: head.suffix,
    width: head.width,
    first: head.number,
    last: tail.number,
    groups: head.entry.groups,
    attributes,
  };
}

/** How a list of values varies with the position in the run. */
export function variationOf(values: readonly string[]): Variation {
  const first = values[0] ?? "";
  if (values.every((value) => value === first)) return { kind: "constant", value: first };
  const decimal = /^(.*?)(\d+)$/.exec(first);
  if (decimal) {
    const [, prefix = "", digits = ""] = decimal;
    const start = Number(digits);
    if (values.every((value, i) => value === `${prefix}${start + i}`))
      return { kind: "step", prefix, first: start };
  }
  const hex = /^(.*:)([0-9a-f]{2})$/i.exec(first);
  if (hex) {
    const [, prefix = "", digits = ""] = hex;
    const start = Number.parseInt(digits, 16);
    const format = (n: number) => n.toString(16).padStart(2, "0");
    if (
      start + values.length <= 256 &&
      values.every((value, i) => value === `${prefix}${format(start + i)}`)
    ) {
      return { kind: "hex", prefix, first: start };
    }
  }
  return { kind: "listed", values };
}
