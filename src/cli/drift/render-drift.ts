/**
 * A drift summary as text (a terminal, a nightly job's log), markdown (the issue or note the
 * scheduled job keeps up to date: headline, a table, each object's values in `<details>`) or JSON.
 * All three say the same.
 */
import { describeNoun } from "../review/render-summary";
import type { DriftKind, DriftLine, DriftSummary } from "./drift-summary";

/** What a line's kind says, after the objects. */
const KIND_TEXT: Record<DriftKind, string> = {
  deleted: "deleted by hand",
  changed: "changed by hand",
  power: "power no longer as held",
  deployment: "no longer as deployed",
  unmanaged: "not managed by the stack",
};

const SIGN: Record<DriftKind, string> = {
  deleted: "-",
  changed: "~",
  power: "!",
  deployment: "!",
  unmanaged: "?",
};

/** Text shown for a management node: the stack's own reads as "the stack's management node". */
function mnName(url: string | undefined): string {
  return url ? url : "the stack's management node";
}

/** `~ ip changed by hand on r01n[03,07] (2 nodes)`, `? 2 nodes not managed by the stack: hand[01-02]`. */
export function describeDriftLine(line: DriftLine): string {
  const count = `${line.names.length} ${describeNoun(line.type, line.names.length)}`;
  // Drift on another management node than the stack's says where.
  const where = line.managementNode ? ` on ${line.managementNode}` : "";
  switch (line.kind) {
    case "changed":
      return `~ ${line.what} ${KIND_TEXT.changed} on ${line.noderange} (${count})${where}`;
    case "deleted":
      return `- ${count} ${KIND_TEXT.deleted}: ${line.noderange}${where}`;
    case "unmanaged":
      return `? ${count} on ${mnName(line.managementNode)} ${KIND_TEXT.unmanaged}: ${line.noderange}`;
    default:
      return `${SIGN[line.kind]} ${line.what} on ${line.noderange} (${count})${where}`;
  }
}

function headline(summary: DriftSummary): string {
  const c = summary.counts;
  const parts = [
    c.changed > 0 ? `${c.changed} changed by hand` : "",
    c.deleted > 0 ? `${c.deleted} deleted by hand` : "",
    c.power > 0 ? `${c.power} with power not as held` : "",
    c.deployment > 0 ? `${c.deployment} no longer as deployed` : "",
    c.unmanaged > 0 ? `${c.unmanaged} not managed by the stack` : "",
  ].filter(Boolean);
  return parts.length === 0
    ? `No drift: ${summary.resources} resources as the state holds them, nothing unmanaged.`
    : `Drift: ${parts.join(", ")} (${summary.resources} resources read).`;
}

function coverageLines(summary: DriftSummary): string[] {
  return summary.coverage.map(
    (c) => `${c.nodes.managed} of ${c.nodes.total} nodes under code on ${mnName(c.managementNode)}`,
  );
}

/** At most this many per-object values in text; markdown and JSON carry all. */
const TEXT_DETAILS = 10;

export function renderDriftText(summary: DriftSummary): string {
  const out = [headline(summary)];
  for (const line of summary.lines) {
    out.push(describeDriftLine(line));
    const details = Object.entries(line.details ?? {});
    for (const [name, detail] of details.slice(0, TEXT_DETAILS)) out.push(`    ${name}: ${detail}`);
    if (details.length > TEXT_DETAILS)
      out.push(`    … ${details.length - TEXT_DETAILS} more (--format json lists all)`);
  }
  out.push(...coverageLines(summary));
  for (const reason of summary.notListed) out.push(`Not listed: ${reason}`);
  return `${out.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

export function renderDriftMarkdown(summary: DriftSummary): string {
  const out = ["### pulumi-xcat drift", "", `**${headline(summary)}**`, ""];
  if (summary.lines.length > 0) {
    out.push("| Drift | What | Objects | Count |", "|---|---|---|---:|");
    for (const line of summary.lines) {
      const what = line.kind === "unmanaged" ? `on ${mnName(line.managementNode)}` : line.what || "-";
      out.push(
        `| ${KIND_TEXT[line.kind]} ${line.type} | ${cell(what)} | \`${cell(line.noderange)}\` | ${line.names.length} |`,
      );
    }
    out.push("");
  }
  for (const coverage of coverageLines(summary)) out.push(`- ${coverage}`);
  for (const reason of summary.notListed) out.push(`- not listed: ${reason}`);
  const detailed = summary.lines.filter((line) => line.details !== undefined);
  if (detailed.length > 0) {
    out.push("", "<details><summary>Every value changed</summary>", "", "```diff");
    for (const line of detailed) {
      for (const [name, detail] of Object.entries(line.details ?? {})) {
        out.push(`~ ${line.type} ${name}: ${line.what}: ${detail}`);
      }
    }
    out.push("```", "", "</details>");
  }
  return `${out.join("\n")}\n`;
}

export function renderDriftJson(summary: DriftSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
