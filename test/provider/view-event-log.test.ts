/**
 * `pulumi-xcat view --event-log`: the view following an up through the engine's event log, on a
 * fresh emulator holding what that up left on the management node. The log and the checkpoints are
 * real: the lab (2 racks of 4, `pollSeconds` 1) brought up with `PULUMI_DEBUG_COMMANDS=true pulumi
 * up --event-log` on the emulator (boot 10 s), copied with `pulumi stack export` 4 s after the
 * Deployment's step started (the canary r01n01 booting), then cancelled with SIGINT (one Ctrl-C) and
 * copied again (test/unit/fixtures/view-up-{running,cancelled}.jsonl and view-state-*.json; the
 * engine's debug lines and the serialized dynamic provider left out, nothing else changed; steps in
 * docs/view.md). What the capture showed: the engine writes `cancelEvent` after `summaryEvent`
 * (sequence 229 after 228), so while the cancel's grace period runs the log still reads "running".
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ViewSource } from "../../src/cli/view/view-source";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";

const fixtures = join(__dirname, "../unit/fixtures");
const fixture = (name: string) => readFileSync(join(fixtures, name), "utf8");
const IMAGE = "rhels9.4-x86_64-netboot-compute";

interface StateResource {
  readonly type: string;
  readonly id?: string;
  readonly outputs?: { attributes?: Record<string, string>; groups?: string[] };
}

describe("view following an up's event log (real log and checkpoints of the lab, cancelled)", () => {
  let emulator: RunningEmulator;
  let client: XcatClient;
  let stateText = fixture("view-state-running.json");
  let eventLog: string | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({});
    client = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
    // The management node as the up left it: the stack's Groups and Nodes with their recorded values.
    const resources = JSON.parse(stateText).deployment.resources as StateResource[];
    for (const group of resources.filter((r) => r.type.endsWith("xcat:Group"))) {
      await client.groups.update(group.id as string, group.outputs?.attributes ?? {});
    }
    for (const node of resources.filter((r) => r.type.endsWith("xcat:Node"))) {
      await client.nodes.create(node.id as string, {
        ...node.outputs?.attributes,
        groups: (node.outputs?.groups ?? []).join(","),
      });
    }
    // The canary mid-boot: nodeset wrote the image on the node itself (its own provmethod).
    await client.nodes.update("r01n01", { provmethod: IMAGE, status: "booting" });
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await emulator?.close();
  });

  const source = () =>
    new ViewSource({
      stack: "cap3",
      managementNode: `the stack's management node (${emulator.url})`,
      client,
      readState: async () => JSON.parse(stateText),
      intervalMs: 5000,
      eventLog: { file: "up.jsonl", read: async () => eventLog },
    });

  const states = (view: ViewSource) =>
    Object.fromEntries(
      [...(view.snapshot.model?.nodes.values() ?? [])]
        .filter((node) => /^r0\dn0\d$/.test(node.name))
        .map((node) => [node.name, `${node.state}: ${node.label}`]),
    );

  it("before the up writes its log: waiting, as without one, and says it waits for the log", async () => {
    const view = source();
    eventLog = undefined;
    await view.tick();
    expect(states(view).r02n04).toBe(`waiting: waiting for ${IMAGE}`);
    expect(view.snapshot.model?.notes[0]).toBe(
      "Following the event log up.jsonl: nothing logged yet (start the up with PULUMI_DEBUG_COMMANDS=true " +
        "pulumi up --event-log up.jsonl).",
    );
  });

  it("mid-roll: the canary booting, the seven others queued; the log read adds no request", async () => {
    const view = source();
    eventLog = fixture("view-up-running.jsonl");
    await view.tick();
    const before = emulator.stats().total;
    await view.tick();
    expect(emulator.stats().total - before).toBe(2);
    const queued = `waiting: queued for ${IMAGE}`;
    expect(states(view)).toEqual({
      r01n01: "deploying: booting",
      r01n02: queued,
      r01n03: queued,
      r01n04: queued,
      r02n01: queued,
      r02n02: queued,
      r02n03: queued,
      r02n04: queued,
    });
    expect(view.snapshot.model?.notes[0]).toMatch(
      /^Following the event log up\.jsonl: an up is running \(last event .*\); Deployment steps: 1 under way, 0 done, 0 failed\.$/,
    );
    expect(view.snapshot.svg).toContain(`r02n04 queued for ${IMAGE}`);
  });

  it("a line the engine is still writing is left for the next tick", async () => {
    const view = source();
    const whole = fixture("view-up-cancelled.jsonl").trimEnd().split("\n");
    // Up to the failed step, its summary cut in half.
    const summary = whole.findIndex((line) => line.includes('"summaryEvent"'));
    eventLog = `${whole.slice(0, summary).join("\n")}\n${(whole[summary] ?? "").slice(0, 40)}`;
    await view.tick();
    // The step failed but neither the end nor the cancel is read yet: the roll stopped, by what the log says.
    expect(states(view).r02n04).toBe("not-reached: not reached (roll stopped)");
  });

  it("after the cancel: the canary booted, the seven others not reached, said as a cancel", async () => {
    const view = source();
    stateText = fixture("view-state-cancelled.json");
    eventLog = fixture("view-up-cancelled.jsonl");
    await client.nodes.update("r01n01", { status: "booted" });
    await view.tick();
    const notReached = "not-reached: not reached (cancelled)";
    expect(states(view)).toEqual({
      r01n01: `booted: booted ${IMAGE}`,
      r01n02: notReached,
      r01n03: notReached,
      r01n04: notReached,
      r02n01: notReached,
      r02n02: notReached,
      r02n03: notReached,
      r02n04: notReached,
    });
    expect(view.snapshot.model?.nodes.get("r02n01")?.facts).toContain(
      "roll (event log of the up): the up was cancelled before it deployed this node",
    );
    expect(view.snapshot.model?.notes[0]).toMatch(
      /^Following the event log up\.jsonl: the up ended after a cancel \(last event .*\); Deployment steps: 0 under way, 0 done, 1 failed\.$/,
    );
    expect(view.snapshot.model?.counts["not-reached"]).toBe(7);
  });
});
