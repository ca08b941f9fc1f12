/**
 * `pulumi-xcat review` on what the real engine prints. The fixture is `pulumi preview --json` of
 * the lab (pulumi v3.259.0), recorded after `npm run demo` with `npm run pulumi -- config set
 * nodesPerRack 15` and `config set vms 5`, with the `__provider` inputs removed (they are long
 * and say nothing). It showed that the engine lists no unchanged steps and gives dynamic
 * resources no `detailedDiff`, so review compares the inputs itself (issue #14).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarizePlan } from "../../src/cli/review/plan-summary";
import { renderText } from "../../src/cli/review/render-summary";

const preview: unknown = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/lab-preview-rack-shrink.json"), "utf8"),
);

describe("review of a real lab preview", () => {
  it("names the deleted nodes first and what changed on the Deployment and PowerState", () => {
    const text = renderText(summarizePlan(preview));
    expect(text.trimEnd().split("\n")).toEqual([
      "! 2 nodes deleted: r[01-02]n16",
      "- 2 nodes r[01-02]n16 in group compute",
      "~ batchSize: 16 → 15 on compute-image (1 Deployment)",
      "~ nodes: - r[01-02]n16 on compute-image (1 Deployment)",
      "~ nodes: - r[01-02]n16 on compute-power (1 PowerState)",
      "+ 1 node vm05 in group vms",
      "+ 1 VirtualMachine vm05",
      "2 to create, 2 to update, 0 to replace, 2 to delete, 53 unchanged",
    ]);
  });
});
