/**
 * Issue #37 item 2: a review sees drift. The fixture is what Pulumi 3.259 printed for
 * `pulumi preview --refresh --json` of test/e2e/fixtures/signoff on the emulator, after login02 was
 * deleted by hand and login01's ip and arch were edited by hand, with an unrelated change of the
 * program (login01's bmc); the dynamic provider's `__provider` code is left out. The whole path,
 * review.sh preview → review.sh up, is in test/e2e/review-signoff.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pinTargets } from "../../src/cli/pins/review-pins";
import { handEditTargets, recordedStates } from "../../src/cli/review/hand-edits";
import { changedPaths, summarizePlan, valueAt } from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";

const preview = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures/signoff-preview-refresh.json"), "utf8"),
) as { steps: Array<{ op: string; urn: string }> };
const URN = "urn:pulumi:dev::xcat-signoff::pulumi-nodejs:dynamic/xcat:Node::";

/** The same preview as a plain `pulumi preview` (no refresh steps) would list it. */
const withoutRefresh = { ...preview, steps: preview.steps.filter((step) => step.op !== "refresh") };

describe("a review of a refreshing preview", () => {
  it("marks each value changed by hand and the node deleted by hand, apart from the program's own change", () => {
    const text = renderText(summarizePlan(preview));
    expect(text.split("\n")).toEqual(
      expect.arrayContaining([
        "! 2 objects changed or deleted by hand on the management node, put back as the program says: login[01-02]",
        "~ arch: ppc64le (changed by hand) → x86_64 on login01 (1 node)",
        "~ bmc: 10.1.200.1 → 10.1.200.11 on login01 (1 node)",
        "~ ip: 10.0.0.99 (changed by hand) → 10.0.0.11 on login01 (1 node)",
        "+ 1 node login02 in group login (deleted by hand, re-created)",
      ]),
    );
    expect(renderMarkdown(summarizePlan(preview))).toContain(
      "| create xcat:Node | in group login (deleted by hand, re-created) | `login02` | 1 |",
    );
  });

  it("says nothing of drift for a preview without a refresh", () => {
    expect(recordedStates(withoutRefresh).size).toBe(0);
    const summary = summarizePlan(withoutRefresh);
    expect(summary.dangers.map((danger) => danger.kind)).not.toContain("drift");
    expect(renderText(summary)).not.toContain("by hand");
  });

  it("names the resources to refresh before the apply: those the change puts back, no other", () => {
    expect(handEditTargets(preview, changedPaths, valueAt)).toEqual([`${URN}login01`, `${URN}login02`]);
    expect(handEditTargets(withoutRefresh, changedPaths, valueAt)).toEqual([]);
  });

  it("pins every attribute of a node it refreshes, as the refresh exposes them all to the apply", () => {
    expect(
      Object.fromEntries(
        [...(pinTargets(preview).get("")?.nodes ?? [])].map(([node, set]) => [node, [...set].sort()]),
      ),
    ).toEqual({
      login01: ["arch", "bmc", "ip", "mac", "mgt"],
    });
    // Without hand edits only what the change writes (issue #37 item 1).
    expect(
      Object.fromEntries(
        [...(pinTargets(withoutRefresh).get("")?.nodes ?? [])].map(([node, set]) => [node, [...set]]),
      ),
    ).toEqual({
      login01: ["arch", "bmc", "ip"],
    });
  });

  it("says a value the program changes too was changed by hand, from what", () => {
    const edited = structuredClone(preview) as {
      steps: Array<{
        op: string;
        urn: string;
        newState?: { inputs: { attributes: Record<string, string> } };
      }>;
    };
    const update = edited.steps.find((step) => step.op === "update" && step.urn === `${URN}login01`);
    if (update?.newState) update.newState.inputs.attributes.ip = "10.0.0.21";
    expect(renderText(summarizePlan(edited))).toContain(
      "~ ip: 10.0.0.99 (changed by hand from 10.0.0.11) → 10.0.0.21 on login01 (1 node)",
    );
  });
});
