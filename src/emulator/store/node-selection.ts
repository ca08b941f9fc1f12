/**
 * The noderange context of the emulated MN: node and group names from the node index, and
 * attribute selectors (`mgt==kvm`) evaluated over node table rows with group inheritance, as
 * NodeRange.pm nodesbycriteria does (:95-200) through getNodesAttribs.
 */
import type { AttributeSelector, NoderangeContext } from "../../contract/noderange";
import { tableSchema } from "../../contract/schema";
import type { NodeIndex } from "./node-index";
import type { TableCommands } from "./table-commands";

export class NodeSelection implements NoderangeContext {
  readonly #index: NodeIndex;
  readonly #tables: TableCommands;

  constructor(index: NodeIndex, tables: TableCommands) {
    this.#index = index;
    this.#tables = tables;
  }

  isNode(name: string): boolean {
    return this.#index.isNode(name);
  }

  groupMembers(name: string): readonly string[] | undefined {
    return this.#index.groupMembers(name);
  }

  /**
   * Every defined node whose value passes; an unset value compares as "" (NodeRange.pm:180-183).
   * A table that does not exist, or a column it lacks, selects nothing (:140-142, :148).
   */
  nodesBySelector(selector: AttributeSelector): readonly string[] {
    const schema = tableSchema(selector.table);
    if (!schema?.columns.some((c) => c.includes(selector.column))) return [];
    const nodes = this.#index.allNodes();
    if (nodes.length === 0) return [];
    const rows = this.#tables.nodeRows([selector.table], nodes, [selector.column])[selector.table] ?? [];
    let pattern: RegExp | undefined;
    if (selector.match === "regex" || selector.match === "notRegex") {
      try {
        pattern = new RegExp(selector.value);
      } catch {
        return [];
      }
    }
    return rows
      .filter((row) => {
        const value = row[selector.column] ?? "";
        if (selector.match === "equal") return value === selector.value;
        if (selector.match === "notEqual") return value !== selector.value;
        if (selector.match === "regex") return pattern?.test(value) ?? false;
        return !(pattern?.test(value) ?? true);
      })
      .map((row) => row.name ?? "")
      .filter((name) => name !== "");
  }
}
