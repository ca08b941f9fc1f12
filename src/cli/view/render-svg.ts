/**
 * The drawing: a legend, then the racks (chassis, group rows) side by side, each node a box with
 * its position, name, state word and marks, then the nodes that could not be placed with why. The
 * page shows it live and `--snapshot` writes it; both are this one function. Every node carries
 * its state in words as well as colour, and the three marks (not under code, drift, policy) have their own
 * outline and word, so the drawing reads in greyscale and to a screen reader (`<title>` per node).
 * Plain SVG with the system's monospace font: nothing fetched. Pure.
 */
import { NODE_STATES, STATE_STYLE, stateLegend } from "./node-state";
import type { Column } from "./placement";
import type { NodeDetail, ViewModel } from "./view-model";
import type { ServerSection } from "./view-source";

const COLUMN_WIDTH = 380;
const COLUMN_GAP = 16;
const COLUMNS_PER_ROW = 5;
const ROW_HEIGHT = 20;
const LINE = 16;
const MARGIN = 12;

/** XML text and attribute escaping. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const DRIFT_STROKE = "#ff6f00";
const POLICY_STROKE = "#d50000";

/** The words after a node's state: its marks. */
export function marksOf(node: NodeDetail): string[] {
  return [
    ...(node.underCode ? [] : ["not under code"]),
    ...(node.drift.length > 0 ? ["drift"] : []),
    ...(node.policy.length > 0 ? ["policy"] : []),
  ];
}

function positionText(column: Column, position: number | undefined): string {
  if (position === undefined) return column.rule === "group" ? "" : "  -";
  const digits = String(position).padStart(2, "0");
  return column.rule === "rack" ? `U${digits}` : column.rule === "chassis" ? `S${digits}` : digits;
}

function nodeBox(
  node: NodeDetail,
  column: Column,
  position: number | undefined,
  x: number,
  y: number,
  server: number | undefined,
): string {
  const style = STATE_STYLE[node.state];
  const marks = marksOf(node);
  const stroke = node.drift.length > 0 ? DRIFT_STROKE : "#000000";
  const strokeWidth = node.drift.length > 0 ? 3 : 1;
  const dash = node.underCode ? "" : ' stroke-dasharray="5 3"';
  const text = [positionText(column, position), node.name, node.label, ...marks.map((mark) => `· ${mark}`)]
    .filter((part) => part !== "")
    .join(" ");
  const title = [`${node.name}: ${node.label}`, ...node.facts].join("\n");
  return (
    `<g class="node" data-node="${escapeXml(node.name)}"${server === undefined ? "" : ` data-server="${server}"`} data-state="${node.state}" tabindex="0" role="button">` +
    `<title>${escapeXml(title)}</title>` +
    `<rect x="${x}" y="${y}" width="${COLUMN_WIDTH}" height="${ROW_HEIGHT - 2}" rx="3" fill="${style.fill}" ` +
    `stroke="${stroke}" stroke-width="${strokeWidth}"${dash}/>` +
    // A policy finding: a second, inner outline, so it shows beside the drift and dashed marks.
    (node.policy.length > 0
      ? `<rect x="${x + 3}" y="${y + 3}" width="${COLUMN_WIDTH - 6}" height="${ROW_HEIGHT - 8}" rx="2" ` +
        `fill="none" stroke="${POLICY_STROKE}" stroke-width="2" stroke-dasharray="1 2"/>`
      : "") +
    `<text x="${x + 6}" y="${y + 13}" fill="${style.text}">${escapeXml(text)}</text></g>`
  );
}

function legend(model: ViewModel, y: number): { svg: string; height: number } {
  const parts: string[] = [];
  let line = y;
  parts.push(
    `<text x="${MARGIN}" y="${line + 12}" font-weight="bold">${escapeXml(
      `stack ${model.stack}: ${model.managementNode}, ${model.nodes.size} nodes`,
    )}</text>`,
  );
  line += LINE + 6;
  for (const state of NODE_STATES) {
    const style = STATE_STYLE[state];
    parts.push(
      `<g class="legend" data-state="${state}"><rect x="${MARGIN}" y="${line}" width="14" height="14" fill="${style.fill}" stroke="#000"/>` +
        `<text x="${MARGIN + 22}" y="${line + 12}">${escapeXml(`${stateLegend(state, model.backend)} (${model.counts[state]})`)}</text></g>`,
    );
    line += LINE + 2;
  }
  parts.push(
    `<rect x="${MARGIN}" y="${line}" width="14" height="14" fill="#ffffff" stroke="#000" stroke-dasharray="5 3"/>` +
      `<text x="${MARGIN + 22}" y="${line + 12}">${escapeXml(
        `dashed outline, "not under code": no Node or NodeSet resource of the stack holds it (${model.notUnderCode})`,
      )}</text>`,
  );
  line += LINE + 2;
  parts.push(
    `<rect x="${MARGIN}" y="${line}" width="14" height="14" fill="#ffffff" stroke="${DRIFT_STROKE}" stroke-width="3"/>` +
      `<text x="${MARGIN + 22}" y="${line + 12}">${escapeXml(
        `thick orange outline, "drift": changed on the ${model.backend === "confluent" ? "server" : "management node"} since the stack last recorded it (${model.withDrift})`,
      )}</text>`,
  );
  line += LINE + 2;
  parts.push(
    `<rect x="${MARGIN}" y="${line}" width="14" height="14" fill="#ffffff" stroke="${POLICY_STROKE}" stroke-width="2" stroke-dasharray="1 2"/>` +
      `<text x="${MARGIN + 22}" y="${line + 12}">${escapeXml(
        `dotted red inner outline, "policy": the policy pack's node rules report it (unique addresses, group typos, ip in a network) (${model.withPolicy})`,
      )}</text>`,
  );
  line += LINE + 2;
  for (const note of model.notes) {
    parts.push(`<text x="${MARGIN}" y="${line + 12}" fill="#b71c1c">${escapeXml(note)}</text>`);
    line += LINE;
  }
  return { svg: parts.join(""), height: line - y + 8 };
}

/** One server's drawing from `top` down: its SVG elements, the height it takes and its width. */
function drawModel(
  model: ViewModel,
  top: number,
  server: number | undefined,
): { svg: string; bottom: number; width: number } {
  const parts: string[] = [];
  const head = legend(model, top);
  parts.push(head.svg);
  let y = top + head.height + 8;
  const columns = model.placement.columns;
  for (let start = 0; start < columns.length; start += COLUMNS_PER_ROW) {
    const row = columns.slice(start, start + COLUMNS_PER_ROW);
    let rowHeight = 0;
    row.forEach((column, index) => {
      const x = MARGIN + index * (COLUMN_WIDTH + COLUMN_GAP);
      let cy = y;
      parts.push(
        `<g class="column" data-column="${escapeXml(column.id)}">` +
          `<text x="${x}" y="${cy + 12}" font-weight="bold">${escapeXml(`${column.title} (${column.nodes.length})`)}</text>`,
      );
      cy += LINE + 2;
      for (const note of column.notes) {
        parts.push(`<text x="${x}" y="${cy + 11}" font-size="10" fill="#37474f">${escapeXml(note)}</text>`);
        cy += LINE - 2;
      }
      for (const placed of column.nodes) {
        const node = model.nodes.get(placed.node);
        if (node === undefined) continue;
        parts.push(nodeBox(node, column, placed.position, x, cy, server));
        cy += ROW_HEIGHT;
      }
      parts.push("</g>");
      rowHeight = Math.max(rowHeight, cy - y);
    });
    y += rowHeight + LINE;
  }
  const unplaced = model.placement.unplaced;
  if (unplaced.length > 0) {
    parts.push(
      `<text x="${MARGIN}" y="${y + 12}" font-weight="bold">${escapeXml(
        `${unplaced.length} nodes not placed in a rack:`,
      )}</text>`,
    );
    y += LINE + 2;
    for (const entry of unplaced) {
      const node = model.nodes.get(entry.node);
      parts.push(
        `<text class="unplaced" data-node="${escapeXml(entry.node)}"${server === undefined ? "" : ` data-server="${server}"`} x="${MARGIN}" y="${y + 12}">${escapeXml(
          `${entry.node} (${node ? [node.label, ...marksOf(node)].join(", ") : "?"}): ${entry.reason}`,
        )}</text>`,
      );
      y += LINE;
    }
  }
  const width =
    MARGIN * 2 + Math.max(1, Math.min(columns.length, COLUMNS_PER_ROW)) * (COLUMN_WIDTH + COLUMN_GAP);
  return { svg: parts.join(""), bottom: y, width };
}

function document(label: string, width: number, height: number, content: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.max(width, 900)}" height="${height}" ` +
    `viewBox="0 0 ${Math.max(width, 900)} ${height}" font-family="monospace" font-size="12" role="img" ` +
    `aria-label="${escapeXml(label)}">` +
    `<rect width="100%" height="100%" fill="#ffffff"/>${content}</svg>\n`
  );
}

/** The whole drawing of one server as an SVG document. */
export function renderSvg(model: ViewModel): string {
  const drawn = drawModel(model, MARGIN, undefined);
  return document(`racks of stack ${model.stack}`, drawn.width, drawn.bottom + MARGIN, drawn.svg);
}

/**
 * The drawing of several servers, one section each in the order given, headed by its name (its
 * URL as given, never a credential); a server not read yet or that cannot be reached gets its
 * sentence where its drawing would be, and its last drawing below it when there is one. Each node
 * carries `data-server`, its section's index, so the page asks for the right node of two with one name.
 */
export function renderSections(stack: string, sections: readonly ServerSection[]): string {
  const parts: string[] = [
    `<text x="${MARGIN}" y="${MARGIN + 12}" font-weight="bold">${escapeXml(
      `stack ${stack}: ${sections.length} servers, each drawn below with its own nodes`,
    )}</text>`,
  ];
  let y = MARGIN + LINE + 8;
  let width = 0;
  sections.forEach((section, index) => {
    parts.push(
      `<g class="server" data-server="${index}"><line x1="${MARGIN}" x2="${MARGIN + 860}" y1="${y}" y2="${y}" stroke="#37474f"/>` +
        `<text x="${MARGIN}" y="${y + 16}" font-weight="bold" font-size="14">${escapeXml(
          `server ${index + 1}: ${section.name}`,
        )}</text></g>`,
    );
    y += LINE + 10;
    if (section.problem !== undefined) {
      parts.push(
        `<text class="server-problem" data-server="${index}" x="${MARGIN}" y="${y + 12}" fill="#b71c1c">${escapeXml(section.problem)}</text>`,
      );
      y += LINE + 4;
    }
    if (section.model !== undefined) {
      const drawn = drawModel(section.model, y, index);
      parts.push(drawn.svg);
      y = drawn.bottom + LINE;
      width = Math.max(width, drawn.width);
    }
  });
  return document(`racks of stack ${stack}, ${sections.length} servers`, width, y + MARGIN, parts.join(""));
}
