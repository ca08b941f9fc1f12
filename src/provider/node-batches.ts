/**
 * Node names as compact xCAT noderanges, and node lists cut into batches: one noderange request
 * serves a whole batch (xcat-behavior.md §10: a PUT to 1,000 nodes costs 0.93 s, to one 0.34 s).
 */

/**
 * The shortest noderange this function can write for `names`: runs of names that differ only in a
 * numeric suffix of the same width become `prefix[from-to]`, the rest stay as they are, joined
 * with commas (xCAT's noderange syntax, xCAT-server/lib/perl/xCAT/NodeRange.pm).
 *
 * @example
 * compactNoderange(["r01n01", "r01n02", "r01n03", "login"]); // "r01n[01-03],login"
 */
export function compactNoderange(names: readonly string[]): string {
  const parts: string[] = [];
  let run: { prefix: string; width: number; from: number; to: number } | undefined;
  const flush = () => {
    if (!run) return;
    const pad = (n: number) => String(n).padStart(run?.width ?? 0, "0");
    parts.push(
      run.from === run.to
        ? `${run.prefix}${pad(run.from)}`
        : `${run.prefix}[${pad(run.from)}-${pad(run.to)}]`,
    );
    run = undefined;
  };
  for (const name of names) {
    const match = /^(.*?[^0-9])?([0-9]+)$/.exec(name);
    if (!match?.[1]) {
      flush();
      parts.push(name);
      continue;
    }
    const prefix = match[1] ?? "";
    const digits = match[2] ?? "";
    const number = Number(digits);
    if (run && run.prefix === prefix && run.width === digits.length && number === run.to + 1) {
      run.to = number;
      continue;
    }
    flush();
    run = { prefix, width: digits.length, from: number, to: number };
  }
  flush();
  return parts.join(",");
}

/** `items` cut into consecutive batches of at most `size`. */
export function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
