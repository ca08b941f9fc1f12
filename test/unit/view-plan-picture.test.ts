/**
 * `pulumi-xcat review --picture` on the lab's image roll (test/unit/fixtures/lab-preview-image-roll.json,
 * a real `pulumi preview --json` of the demo lab, see review-real-preview.test.ts): the picture marks
 * exactly the nodes the roll re-images, and the created login node.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ClusterFacts } from "../../src/cli/review/cluster-facts";
import { summarizePlan } from "../../src/cli/review/plan-summary";
import { planMarks, renderPlanPicture } from "../../src/cli/view/plan-picture";

const roll: unknown = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/lab-preview-image-roll.json"), "utf8"),
);

// What review reads of the lab for this plan (as review-real-preview.test.ts): the compute group's 64 nodes.
const nodes = ["r01", "r02"].flatMap((r) =>
  Array.from({ length: 32 }, (_, i) => `${r}n${String(i + 1).padStart(2, "0")}`),
);
const lab = new ClusterFacts({
  nodelist: nodes.map((node) => ({ node, groups: `compute,rack${node.slice(1, 3)},all` })),
  nodetype: [
    { node: "compute", provmethod: "rhels9.4-x86_64-netboot-compute" },
    ...nodes.map((node) => ({ node, provmethod: "rhels9.4-x86_64-netboot-compute" })),
  ],
});

describe("review --picture of the lab's image roll", () => {
  const summary = summarizePlan(roll, lab);
  const marks = planMarks(summary);

  it("marks exactly the nodes review counts as re-imaged, and the created node", () => {
    const reimaged = [...marks].filter(([, list]) => list.includes("re-imaged")).map(([name]) => name);
    const danger = summary.dangers.find((d) => d.kind === "reimage");
    expect(danger?.count).toBe(reimaged.length);
    expect(reimaged).toHaveLength(64);
    expect(reimaged[0]).toBe("r01n01");
    expect(reimaged.at(-1)).toBe("r02n32");
    expect(marks.get("login02")).toEqual(["created"]);
    expect([...marks].filter(([, list]) => list.includes("deleted"))).toEqual([]);
  });

  it("draws the racks with each node's marks in words and a legend with counts", () => {
    const svg = renderPlanPicture(summary, "plan of stack demo");
    expect(svg).toContain("rack 1 (32)");
    expect(svg).toContain("rack 2 (32)");
    expect(svg).toContain(">r01n07 re-imaged<");
    expect(svg).toContain("re-imaged: a Deployment deploys an image onto it (64)");
    expect(svg).toContain("created: a new Node resource (1)");
    expect(svg).toMatch(/login02 created: not placed|group [a-z]+ \(1\)/);
    expect((svg.match(/data-marks="re-imaged"/g) ?? []).length).toBe(64);
  });
});

describe("pulumi-xcat review --picture", () => {
  it("writes the picture beside the review, offline, marking the 64 re-imaged nodes", async () => {
    const { run } = await import("../../src/cli/review/review-command");
    const { mkdtemp, readFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const file = join(await mkdtemp(join(tmpdir(), "review-picture-")), "plan.svg");
    const fixture = join(import.meta.dirname, "fixtures/lab-preview-image-roll.json");
    expect(await run([fixture, "--offline", "--picture", file])).toBe(0);
    const svg = await readFile(file, "utf8");
    expect(svg).toContain("plan of stack demo");
    expect((svg.match(/data-marks="re-imaged"/g) ?? []).length).toBe(64);
    // docs/view.md shows it: PULUMI_XCAT_VIEW_SCREENSHOTS=docs/images writes it there.
    const shots = process.env.PULUMI_XCAT_VIEW_SCREENSHOTS;
    if (shots) await (await import("node:fs/promises")).writeFile(join(shots, "review-picture.svg"), svg);
    expect(await run([fixture, "--offline", "--picture", "plan.png"])).toBe(2);
    // Loads the review command and its summary code: seconds on a busy machine (no bound on speed).
  }, 60_000);
});

describe("review --picture of a plan on xCAT and Confluent providers", () => {
  it("draws the nodes the plan names on either server (a real preview of a stack with providers mnA and a Confluent mnC)", () => {
    const preview: unknown = JSON.parse(
      readFileSync(join(import.meta.dirname, "fixtures/native-preview-providers-change.json"), "utf8"),
    );
    const summary = summarizePlan(preview);
    // a01 is on xCAT's mnA, c01 on the Confluent provider mnC; both updated, neither re-imaged.
    expect([...planMarks(summary)]).toEqual([
      ["a01", []],
      ["c01", []],
    ]);
    const svg = renderPlanPicture(summary, "plan");
    // Named, not placed (no rack in the preview, no pattern in the names), and said so, not hidden.
    expect(svg).toContain("c01 unchanged: not placed, it has no rack");
    expect(svg).toContain("a01 unchanged: not placed, it has no rack");
  });
});
