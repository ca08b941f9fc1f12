/**
 * A plan summary as text (terminal), markdown (a pull-request comment: a table, then the detail
 * in a collapsible `<details>`), or JSON (tools). All three say the same: what each change does to
 * nodes (its effects) and each new node's addresses (its details).
 */
import type { ChangeEffect, ChangeLine, DangerCount, PlanSummary } from "./plan-summary";

const SIGN: Record<ChangeLine["op"], string> = {
  create: "+",
  delete: "-",
  update: "~",
  replace: "+-",
  adopt: "~",
  unprotect: "~",
};

/** `node`/`nodes`, `Osimage`/`Osimages`: a resource type as a noun for `count` objects. */
export function describeNoun(type: string, count: number): string {
  const kind = type === "xcat:Node" ? "node" : type.replace(/^xcat:/, "");
  return count === 1 ? kind : `${kind}${kind.endsWith("s") ? "es" : "s"}`;
}

/** `~ provmethod: a → b on r[01-02]n[01-32] (64 nodes)`, `+ 1 node r03n01 in group compute`. */
export function describeLine(line: ChangeLine): string {
  const count = `${line.names.length} ${describeNoun(line.type, line.names.length)}`;
  if (line.nodeSet !== undefined) return describeSetLine(line, count);
  if (line.op === "update") return `${SIGN.update} ${line.what} on ${line.noderange} (${count})`;
  if (line.op === "adopt") return `${SIGN.adopt} takes over ${count} ${line.noderange}: ${line.what}`;
  if (line.op === "unprotect") return `${SIGN.unprotect} ${line.what} from ${count} ${line.noderange}`;
  const verb = line.op === "replace" ? " replaced" : "";
  return `${SIGN[line.op]} ${count}${verb} ${line.noderange}${line.what ? ` ${line.what}` : ""}`;
}

/**
 * Nodes of a NodeSet, named with the set: `~ 20 nodes r02n[01-20] (NodeSet rack2): provmethod: a → b`,
 * `+ 2 nodes r01n[21-22] (NodeSet rack1) in group rack1`.
 */
function describeSetLine(line: ChangeLine, count: string): string {
  const nodes = `${count} ${line.noderange} (NodeSet ${line.nodeSet})`;
  if (line.op === "update") return `${SIGN.update} ${nodes}: ${line.what}`;
  if (line.op === "adopt") return `${SIGN.adopt} takes over ${nodes}: ${line.what}`;
  if (line.op === "unprotect") return `${SIGN.unprotect} ${line.what} from ${nodes}`;
  const verb = line.op === "replace" ? " replaced" : "";
  return `${SIGN[line.op]} ${count}${verb} ${line.noderange} (NodeSet ${line.nodeSet})${line.what ? ` ${line.what}` : ""}`;
}

/** `deploys rhels9.5 (image changed): r[01-02]n[01-32] (64 nodes)`; an effect on no node is its text. */
export function describeEffect(effect: ChangeEffect): string {
  if (effect.names.length === 0) return effect.what;
  return `${effect.what}: ${effect.noderange} (${effect.names.length} ${describeNoun("xcat:Node", effect.names.length)})`;
}

function totals(summary: PlanSummary): string {
  const c = summary.counts;
  return (
    `${c.create} to create, ${c.adopt} to adopt, ${c.update} to update, ${c.replace} to replace, ` +
    `${c.delete} to delete, ${c.same} unchanged`
  );
}

/** The refusals of a preview on a Confluent stack, first: nothing moves until they are decided. */
function cannotMoveHeading(summary: PlanSummary): string {
  return `Cannot move to Confluent (${summary.cannotMove?.length ?? 0}; see docs/confluent.md)`;
}

export function renderText(summary: PlanSummary): string {
  const out: string[] = [];
  if (summary.cannotMove) {
    out.push(`${cannotMoveHeading(summary)}:`);
    for (const line of summary.cannotMove) out.push(`x ${line}`);
  }
  for (const d of summary.dangers) out.push(`! ${d.count} ${d.text}: ${d.noderange}${onManagementNode(d)}`);
  let at: string | undefined;
  for (const line of summary.lines) {
    if (line.managementNode !== undefined && line.managementNode !== at) {
      at = line.managementNode;
      out.push(`On ${at}:`);
    }
    out.push(describeLine(line));
    for (const effect of line.effects ?? []) out.push(`    ${describeEffect(effect)}`);
    for (const name of line.names) {
      const detail = line.details?.[name];
      if (detail !== undefined) out.push(`    ${name}: ${detail}`);
    }
  }
  if (summary.lines.length === 0) out.push("No changes.");
  for (const line of summary.nameServices ?? []) out.push(`= ${line}`);
  out.push(totals(summary));
  return `${out.join("\n")}\n`;
}

/** ` on provider mnB (…)` after a danger's objects, when the plan names management nodes. */
function onManagementNode(danger: DangerCount): string {
  return danger.managementNode === undefined ? "" : ` on ${danger.managementNode}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

export function renderMarkdown(summary: PlanSummary): string {
  const out = ["### pulumi-xcat review", ""];
  if (summary.cannotMove) {
    out.push(`**${cannotMoveHeading(summary)}**`, "");
    for (const line of summary.cannotMove) out.push(`- :x: ${cell(line)}`);
    out.push("");
  }
  if (summary.dangers.length > 0) {
    out.push("**Needs attention**", "");
    for (const d of summary.dangers)
      out.push(`- :warning: **${d.count}** ${d.text}: \`${d.noderange}\`${cell(onManagementNode(d))}`);
    out.push("");
  }
  out.push("| Change | What | Objects | Count |", "|---|---|---|---:|");
  let at: string | undefined;
  for (const line of summary.lines) {
    if (line.managementNode !== undefined && line.managementNode !== at) {
      at = line.managementNode;
      out.push(`| **on ${cell(at)}** | | | |`);
    }
    out.push(
      `| ${line.op} ${line.type}${line.nodeSet === undefined ? "" : ` (NodeSet ${cell(line.nodeSet)})`} | ${cell(line.what || "-")} | \`${cell(line.noderange)}\` | ${line.names.length} |`,
    );
    for (const effect of line.effects ?? []) {
      const nodes = effect.names.length > 0 ? `\`${cell(effect.noderange)}\`` : "-";
      out.push(`| ↳ nodes | ${cell(effect.what)} | ${nodes} | ${effect.names.length} |`);
    }
  }
  if (summary.lines.length === 0) out.push("| none | | | 0 |");
  if (summary.nameServices) {
    out.push("", "**Name services on the management node**", "");
    for (const line of summary.nameServices) out.push(`- ${cell(line)}`);
  }
  out.push("", totals(summary), "", "<details><summary>Every object</summary>", "", "```diff");
  for (const line of summary.lines) {
    const sign = line.op === "create" ? "+" : line.op === "delete" || line.op === "replace" ? "-" : "~";
    const where = [
      line.nodeSet === undefined ? "" : ` (NodeSet ${line.nodeSet})`,
      line.managementNode === undefined ? "" : ` (on ${line.managementNode})`,
    ].join("");
    for (const name of line.names) {
      const detail = line.details?.[name];
      const what = [line.op === "adopt" ? `takes over, ${line.what}` : line.what, detail]
        .filter((part) => part)
        .join("; ");
      out.push(`${sign} ${line.type} ${name}${where}${what ? `: ${what}` : ""}`);
    }
    for (const effect of line.effects ?? []) out.push(`  ↳ ${describeEffect(effect)}`);
  }
  out.push("```", "", "</details>");
  return `${out.join("\n")}\n`;
}

export function renderJson(summary: PlanSummary): string {
  return `${JSON.stringify(summary, null, 2)}\n`;
}
