/**
 * A plan summary as text (terminal), markdown (a pull-request comment: a table, then the detail
 * in a collapsible `<details>`), or JSON (tools).
 */
import type { ChangeLine, PlanSummary } from "./plan-summary";

const SIGN: Record<ChangeLine["op"], string> = { create: "+", delete: "-", update: "~", replace: "+-" };

function noun(line: ChangeLine): string {
  const kind = line.type === "xcat:Node" ? "node" : line.type.replace(/^xcat:/, "");
  return line.names.length === 1 ? kind : `${kind}${kind.endsWith("s") ? "es" : "s"}`;
}

/** `~ provmethod: a → b on r[01-02]n[01-32] (64 nodes)`, `+ 1 node r03n01 in group compute`. */
export function describeLine(line: ChangeLine): string {
  const count = `${line.names.length} ${noun(line)}`;
  if (line.op === "update") return `${SIGN.update} ${line.what} on ${line.noderange} (${count})`;
  const verb = line.op === "replace" ? " replaced" : "";
  return `${SIGN[line.op]} ${count}${verb} ${line.noderange}${line.what ? ` ${line.what}` : ""}`;
}

function totals(summary: PlanSummary): string {
  const c = summary.counts;
  return `${c.create} to create, ${c.update} to update, ${c.replace} to replace, ${c.delete} to delete, ${c.same} unchanged`;
}

export function renderText(summary: PlanSummary): string {
  const out: string[] = [];
  for (const d of summary.dangers) out.push(`! ${d.count} ${d.text}: ${d.noderange}`);
  for (const line of summary.lines) out.push(describeLine(line));
  if (summary.lines.length === 0) out.push("No changes.");
  out.push(totals(summary));
  return `${out.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

export function renderMarkdown(summary: PlanSummary): string {
  const out = ["### pulumi-xcat review", ""];
  if (summary.dangers.length > 0) {
    out.push("**Needs attention**", "");
    for (const d of summary.dangers) out.push(`- :warning: **${d.count}** ${d.text}: \`${d.noderange}\``);
    out.push("");
  }
  out.push("| Change | What | Objects | Count |", "|---|---|---|---:|");
  for (const line of summary.lines) {
    out.push(
      `| ${line.op} ${line.type} | ${cell(line.what || "-")} | \`${cell(line.noderange)}\` | ${line.names.length} |`,
    );
  }
  if (summary.lines.length === 0) out.push("| none | | | 0 |");
  out.push("", totals(summary), "", "<details><summary>Every object</summary>", "", "```diff");
  for (const line of summary.lines) {
    for (const name of line.names)
      out.push(
        `${line.op === "update" ? "~" : line.op === "create" ? "+" : "-"} ${line.type} ${name}${line.what ? `: ${line.what}` : ""}`,
      );
  }
  out.push("```", "", "</details>");
  return `${out.join("\n")}\n`;
}

export function renderJson(summary: PlanSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
