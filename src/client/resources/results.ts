/**
 * Readers for the answers of xCAT's action endpoints: per-node status values (`actionout`),
 * per-node or flat output lines (`infoout`), S1 maps that may be empty.
 */
import { z } from "zod";
import { MessagesByName, NodeActionResults, ObjectAttributeMaps, StringList } from "../../contract/envelope";
import { type Answer, parseBody } from "../engine";
import { expandCollapsedKeys } from "../quirks";

/** A value per node name. */
export type PerNode<T> = Readonly<Record<string, T>>;

/** Per-node results of the hardware endpoints (energy, sp, vitals, inventory): key → value(s). */
export type NodeResults = PerNode<Readonly<Record<string, string | readonly string[]>>>;

/**
 * Output of updatenode/xdsh-style actions: lines grouped by node when xCAT prefixed them with
 * `node:`, and the remaining lines (or all of them, when none had a prefix) in `lines`.
 *
 * @example
 * ```ts
 * const { byNode } = await client.nodes.nodeshell("n01", { command: ["uptime"] });
 * ```
 */
export interface NodeOutput {
  readonly byNode: PerNode<readonly string[]>;
  readonly lines: readonly string[];
}

/** The answer as per-node results; an empty body is `{}`. */
export function nodeResults(answer: Answer): Record<string, Record<string, string | string[]>> {
  if (answer.body === undefined || answer.body === null) return {};
  return expandCollapsedKeys(parseBody(answer, NodeActionResults));
}

/**
 * One named value per node (`{"n1":{"power":"on"}}` → `{ n1: "on" }`). Any of `keys` is
 * accepted; a node entry with a single other key is taken as is (xCAT names some values after
 * the hardware's description). Lists are joined with newlines.
 */
export function perNodeValue(answer: Answer, keys: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [node, result] of Object.entries(nodeResults(answer))) {
    const key =
      keys.find((k) => k in result) ??
      (Object.keys(result).length === 1 ? Object.keys(result)[0] : undefined);
    const value = key === undefined ? undefined : result[key];
    out[node] = value === undefined ? "" : typeof value === "string" ? value : value.join("\n");
  }
  return out;
}

/** A list of lines per node (`{"n1":{"eventlog":["a","b"]}}` → `{ n1: ["a","b"] }`). */
export function perNodeLines(answer: Answer, key: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [node, result] of Object.entries(nodeResults(answer))) {
    const value = result[key] ?? Object.values(result)[0];
    out[node] = value === undefined ? [] : typeof value === "string" ? [value] : [...value];
  }
  return out;
}

const InfoOutput = z.union([z.null(), StringList, MessagesByName]);

/** updatenode/xdsh output: S2 grouped by node, S3 flat lines, `null` or empty for none. */
export function nodeOutput(answer: Answer): NodeOutput {
  if (answer.body === undefined) return { byNode: {}, lines: [] };
  const parsed = parseBody(answer, InfoOutput);
  if (parsed === null) return { byNode: {}, lines: [] };
  if (Array.isArray(parsed)) return { byNode: {}, lines: parsed };
  return { byNode: expandCollapsedKeys(parsed), lines: [] };
}

/** A flat list of lines (S3); empty body or `null` is `[]`. */
export function lines(answer: Answer): string[] {
  if (answer.body === undefined || answer.body === null) return [];
  return parseBody(answer, StringList);
}

/** An S1 map (object → attribute → value); an empty body is `{}`. */
export function attributeMaps(answer: Answer): Record<string, Record<string, string>> {
  if (answer.body === undefined || answer.body === null) return {};
  return expandCollapsedKeys(parseBody(answer, ObjectAttributeMaps));
}
