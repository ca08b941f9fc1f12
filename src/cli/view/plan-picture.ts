/**
 * `pulumi-xcat review --picture plan.svg`: the nodes a plan changes, marked on the racks, for a
 * pull request or a change ticket. From review's own summary (plan-summary.ts, the same counts the
 * text review prints): re-imaged (the `reimage` danger: nodes a Deployment deploys), created and
 * deleted (xcat:Node creates and deletes), power switched (the `power` danger: on, off or reset;
 * the danger does not carry which, so the mark says only that the power is switched). The nodes drawn are
 * those the preview names (its Node steps, the noderanges of its dangers and effects): a preview
 * without `--show-sames` does not list unchanged nodes, so racks show what the plan touches and
 * what its Deployments cover. Placed by the view's rule (placement.ts) from the names. Pure.
 */
import { compareStrings, expandNoderange } from "../../contract/noderange";
import type { PlanSummary } from "../review/plan-summary";
import { placeNodes } from "./placement";
import { escapeXml } from "./render-svg";

/** The marks, in the order of the legend and of precedence for a node's colour. */
export const PLAN_MARKS = ["deleted", "created", "re-imaged", "power switched"] as const;
export type PlanMark = (typeof PLAN_MARKS)[number];

const MARK_STYLE: Readonly<Record<PlanMark | "unchanged", { fill: string; text: string; legend: string }>> = {
  deleted: { fill: "#c62828", text: "#ffffff", legend: "deleted: its Node resource is deleted" },
  created: { fill: "#1565c0", text: "#ffffff", legend: "created: a new Node resource" },
  "re-imaged": {
    fill: "#f9a825",
    text: "#000000",
    legend: "re-imaged: a Deployment deploys an image onto it",
  },
  "power switched": {
    fill: "#424242",
    text: "#ffffff",
    legend:
      "power switched: a PowerState switches it (on, off or reset), or a deleted Deployment powers it off",
  },
  unchanged: { fill: "#ffffff", text: "#000000", legend: "unchanged: named by the plan, not changed" },
};

const rangeNames = (noderange: string) =>
  noderange === "" ? [] : expandNoderange(noderange, { isNode: () => false, groupMembers: () => undefined });

/** Per node the plan names: its marks (none when it is only named). */
export function planMarks(summary: PlanSummary): Map<string, PlanMark[]> {
  const marks = new Map<string, PlanMark[]>();
  const mark = (names: readonly string[], what: PlanMark | undefined) => {
    for (const name of names) {
      const list = marks.get(name) ?? [];
      if (what !== undefined && !list.includes(what)) list.push(what);
      marks.set(name, list);
    }
  };
  for (const danger of summary.dangers) {
    if (danger.kind === "reimage") mark(rangeNames(danger.noderange), "re-imaged");
    else if (danger.kind === "power") mark(rangeNames(danger.noderange), "power switched");
  }
  for (const line of summary.lines) {
    if (line.type !== "xcat:Node") {
      for (const effect of line.effects ?? []) mark(effect.names, undefined);
      continue;
    }
    mark(line.names, line.op === "create" ? "created" : line.op === "delete" ? "deleted" : undefined);
  }
  for (const list of marks.values()) list.sort((a, b) => PLAN_MARKS.indexOf(a) - PLAN_MARKS.indexOf(b));
  return marks;
}

const WIDTH = 300;
const ROW = 20;
const PER_ROW = 6;

/** The plan's picture as SVG: a legend with counts, then the racks with each node's marks in words. */
export function renderPlanPicture(summary: PlanSummary, title: string): string {
  const marks = planMarks(summary);
  const names = [...marks.keys()].sort(compareStrings);
  const placement = placeNodes(names.map((name) => ({ name })));
  const parts: string[] = [];
  let y = 12;
  parts.push(`<text x="12" y="${y + 12}" font-weight="bold">${escapeXml(title)}</text>`);
  y += 22;
  for (const key of [...PLAN_MARKS, "unchanged"] as const) {
    const count = names.filter((name) =>
      key === "unchanged" ? (marks.get(name) ?? []).length === 0 : marks.get(name)?.includes(key),
    ).length;
    const style = MARK_STYLE[key];
    parts.push(
      `<g class="legend" data-mark="${key}"><rect x="12" y="${y}" width="14" height="14" fill="${style.fill}" stroke="#000"/>` +
        `<text x="34" y="${y + 12}">${escapeXml(`${style.legend} (${count})`)}</text></g>`,
    );
    y += 18;
  }
  y += 8;
  const columns = placement.columns;
  for (let start = 0; start < columns.length; start += PER_ROW) {
    let height = 0;
    columns.slice(start, start + PER_ROW).forEach((column, index) => {
      const x = 12 + index * (WIDTH + 16);
      parts.push(
        `<text x="${x}" y="${y + 12}" font-weight="bold">${escapeXml(`${column.title} (${column.nodes.length})`)}</text>`,
      );
      let cy = y + 18;
      for (const placed of column.nodes) {
        const list = marks.get(placed.node) ?? [];
        const style = MARK_STYLE[list[0] ?? "unchanged"];
        const words = [placed.node, ...(list.length > 0 ? list : ["unchanged"])].join(" ");
        parts.push(
          `<g class="node" data-node="${escapeXml(placed.node)}" data-marks="${list.join(",")}">` +
            `<rect x="${x}" y="${cy}" width="${WIDTH}" height="${ROW - 2}" rx="3" fill="${style.fill}" stroke="#000"/>` +
            `<text x="${x + 6}" y="${cy + 13}" fill="${style.text}">${escapeXml(words)}</text></g>`,
        );
        cy += ROW;
      }
      height = Math.max(height, cy - y);
    });
    y += height + 16;
  }
  for (const entry of placement.unplaced) {
    parts.push(
      `<text x="12" y="${y + 12}">${escapeXml(`${entry.node} ${(marks.get(entry.node)?.length ? (marks.get(entry.node) ?? []) : ["unchanged"]).join(" ")}: not placed, ${entry.reason}`)}</text>`,
    );
    y += 16;
  }
  const width = Math.max(900, 24 + Math.min(columns.length, PER_ROW) * (WIDTH + 16));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y + 12}" viewBox="0 0 ${width} ${y + 12}" ` +
    `font-family="monospace" font-size="12" role="img" aria-label="${escapeXml(title)}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>${parts.join("")}</svg>\n`
  );
}
