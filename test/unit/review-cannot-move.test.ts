/**
 * review lists what a preview on a Confluent stack refused to move. The diagnostics shape is
 * that of `pulumi preview --json` (pkg/backend/display/json.go previewDigest.diagnostics: urn,
 * message, severity); test/e2e/confluent-move.test.ts checks it on the real engine's output.
 */
import { describe, expect, it } from "vitest";
import { summarizePlan } from "../../src/cli/review/plan-summary";
import { renderMarkdown, renderText } from "../../src/cli/review/render-summary";

const preview = {
  steps: [],
  diagnostics: [
    {
      urn: "urn:pulumi:confluent::p::pulumi-nodejs:dynamic:Resource$pulumi-nodejs:dynamic/xcat:Group::compute",
      message:
        "pulumi-nodejs:dynamic:Resource resource 'compute': property attributes value {…} has a problem: " +
        "xcat:Group 'compute': attribute 'postscripts' has no counterpart on Confluent: Confluent runs scripts " +
        "from the deployment profile\n",
      severity: "error",
    },
    {
      urn: "urn:pulumi:confluent::p::pulumi-nodejs:dynamic:Resource$pulumi-nodejs:dynamic/xcat:Network::mgmt",
      message: "xcat:Network 'mgmt' cannot move to Confluent: Confluent has no network objects",
      severity: "error",
    },
    { message: "an unrelated failure", severity: "error" },
    { message: "xcat:Network 'x' cannot move to Confluent: shown as a warning", severity: "warning" },
  ],
};

describe("review on a Confluent stack", () => {
  it("lists each refusal once, from the resource's own words, and nothing else", () => {
    expect(summarizePlan(preview).cannotMove).toEqual([
      "xcat:Group 'compute': attribute 'postscripts' has no counterpart on Confluent: Confluent runs scripts from the deployment profile",
      "xcat:Network 'mgmt' cannot move to Confluent: Confluent has no network objects",
    ]);
    expect(summarizePlan({ steps: [] }).cannotMove).toBeUndefined();
  });

  it("puts them first in text and markdown", () => {
    const text = renderText(summarizePlan(preview));
    expect(text.split("\n")[0]).toBe("Cannot move to Confluent (2; see docs/confluent.md):");
    expect(text).toContain("x xcat:Network 'mgmt' cannot move to Confluent");
    expect(renderMarkdown(summarizePlan(preview))).toContain(
      "- :x: xcat:Group 'compute': attribute 'postscripts'",
    );
  });
});
