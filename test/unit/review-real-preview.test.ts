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
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";

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

/**
 * The README's sample: `pulumi preview --json` of the demo lab with two racks of 32 after
 * `config set computeOs rhels9.5` and `config set loginNodes 2` (pulumi v3.259.0, `__provider`
 * inputs removed). The same change is reviewed live by test/e2e/review-ci.test.ts.
 */
describe("review of the lab's image roll (the README's sample)", () => {
  const roll: unknown = JSON.parse(
    readFileSync(join(import.meta.dirname, "fixtures/lab-preview-image-roll.json"), "utf8"),
  );
  const text = renderText(summarizePlan(roll));

  it("puts the Deployment's re-image of both racks first, then one line per change", () => {
    const image = (os: string) => `${os}-x86_64-netboot-compute`;
    expect(text.trimEnd().split("\n")).toEqual([
      "! 64 nodes re-imaged by a Deployment: r[01-02]n[01-32]",
      `- 1 Osimage ${image("rhels9.4")}`,
      `~ osimage: ${image("rhels9.4")} → ${image("rhels9.5")} on compute-image (1 Deployment)`,
      `~ provmethod: ${image("rhels9.4")} → ${image("rhels9.5")} on compute (1 Group)`,
      "+ 1 node login02 in group service",
      `+ 1 Osimage ${image("rhels9.5")}`,
      "2 to create, 2 to update, 0 to replace, 1 to delete, 86 unchanged",
    ]);
  });

  it("is what README.md shows, and the markdown lines README quotes are what review writes", () => {
    const readme = readFileSync(join(import.meta.dirname, "../../README.md"), "utf8");
    expect(readme).toContain(`\`\`\`\n${text}\`\`\``);
    const markdown = renderMarkdown(summarizePlan(roll)).split("\n");
    const quoted = /```markdown\n([\s\S]*?)```/.exec(readme)?.[1]?.trimEnd().split("\n") ?? [];
    expect(quoted.length).toBeGreaterThan(3);
    for (const line of quoted) expect(markdown).toContain(line);
  });
});
