/**
 * What `pulumi-xcat view --event-log` makes of the engine's event log (src/cli/view/up-events.ts):
 * where a roll stands for a node, from a real log of the lab's `pulumi up` cancelled during the
 * canary's boot (test/unit/fixtures/view-up-*.jsonl, see that folder's README) and from
 * hand-built progress for the cases a single capture does not hold.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type DeploymentStep,
  parseUpEvents,
  rollPosition,
  type UpProgress,
  upNote,
} from "../../src/cli/view/up-events";

const fixture = (name: string) => readFileSync(join(__dirname, "fixtures", name), "utf8");
const LAB_DEPLOYMENT = "urn:pulumi:cap3::xcat-lab::pulumi-nodejs:dynamic/xcat:Deployment::compute-image";

const URN = "urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Deployment::compute";

function progress(step: Partial<DeploymentStep> | undefined, more: Partial<UpProgress> = {}): UpProgress {
  const deployments = new Map<string, DeploymentStep>();
  if (step) deployments.set(URN, { name: "compute", urn: URN, op: "update", phase: "running", ...step });
  return {
    cancelled: false,
    ended: false,
    deployments,
    lastEventAt: 1_800_000_000,
    events: 10,
    preview: false,
    ...more,
  };
}

describe("view reading a real event log of the lab's up", () => {
  it("mid-roll: one Deployment step under way, with the image from its inputs; the up running", () => {
    const progress = parseUpEvents(fixture("view-up-running.jsonl"));
    expect([...progress.deployments.values()]).toEqual([
      {
        name: "compute-image",
        urn: LAB_DEPLOYMENT,
        op: "create",
        osimage: "rhels9.4-x86_64-netboot-compute",
        phase: "running",
      },
    ]);
    expect([progress.cancelled, progress.ended, progress.preview]).toEqual([false, false, false]);
    expect(rollPosition(progress, "compute-image", "r02n04")).toBe("queued");
  });

  it("after one Ctrl-C: the step failed, the update ended, the cancel logged (after the summary)", () => {
    const text = fixture("view-up-cancelled.jsonl");
    const progress = parseUpEvents(text);
    expect(progress.deployments.get(LAB_DEPLOYMENT)?.phase).toBe("failed");
    expect([progress.cancelled, progress.ended]).toEqual([true, true]);
    expect(rollPosition(progress, "compute-image", "r02n04")).toBe("not-reached-cancelled");
    const kinds = text
      .trim()
      .split("\n")
      .map((line) => Object.keys(JSON.parse(line)).find((key) => key.endsWith("Event")));
    expect(kinds.slice(-2)).toEqual(["summaryEvent", "cancelEvent"]);
  });
});

describe("view roll position from the up's event log", () => {
  it("a running step of a running up: queued", () => {
    expect(rollPosition(progress({}), "compute", "r01n02")).toBe("queued");
  });

  it("a running step after a cancel (the engine is finishing): not reached, cancelled", () => {
    expect(rollPosition(progress({}, { cancelled: true }), "compute", "r01n02")).toBe(
      "not-reached-cancelled",
    );
  });

  it("a failed step without a cancel (the roll stopped after failures): not reached, stopped", () => {
    expect(rollPosition(progress({ phase: "failed" }, { ended: true }), "compute", "r01n02")).toBe(
      "not-reached-stopped",
    );
  });

  it("a done step: nothing for a node it recorded deployed, not reached for one it did not", () => {
    const deployed = new Map([
      ["r01n01", true],
      ["r01n02", false],
    ]);
    const done = progress({ phase: "done", deployed }, { ended: true });
    expect(rollPosition(done, "compute", "r01n01")).toBeUndefined();
    expect(rollPosition(done, "compute", "r01n02")).toBe("not-reached-stopped");
  });

  it("says nothing of a Deployment the log does not hold, nor from a preview's log", () => {
    expect(rollPosition(progress(undefined), "compute", "r01n02")).toBeUndefined();
    expect(rollPosition(progress({}), "other", "r01n02")).toBeUndefined();
    expect(rollPosition(progress({}, { preview: true, ended: true }), "compute", "r01n02")).toBeUndefined();
  });

  it("says in a sentence what it follows", () => {
    expect(upNote(undefined, "/tmp/up.jsonl")).toBe(
      "Following the event log /tmp/up.jsonl: nothing logged yet (start the up with " +
        "PULUMI_DEBUG_COMMANDS=true pulumi up --event-log /tmp/up.jsonl).",
    );
    expect(upNote(progress({}), "up.jsonl")).toMatch(
      /^Following the event log up\.jsonl: an up is running \(last event 2027-01-15T08:00:00\.000Z\); Deployment steps: 1 under way, 0 done, 0 failed\.$/,
    );
    expect(upNote(progress({ phase: "failed" }, { cancelled: true, ended: true }), "up.jsonl")).toContain(
      "the up ended after a cancel",
    );
  });
});
