/**
 * `pulumi-xcat drift` through the real engine on the lab (issue #22 item 4), from the packed
 * package's bin as a user runs it: a clean lab exits 0; after three hand edits on two racks, one
 * node deleted by hand, two nodes defined by hand and one node powered off by hand, every one of
 * them is named by noderange and it exits 3, in a few listing requests beyond the refresh's reads.
 * A drift run with no stack selected fails with a sentence saying what to do. `pulumi-xcat view
 * --snapshot` (issue #39) draws the same hand edits from the same stack, with no engine run of its own.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { labProgram } from "./support/lab-program";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const started = Date.now();
let emulator: RunningEmulator;
let workspace: PulumiWorkspace;
let labCopy: string;

function diff(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([route, count]) => [route, count - (before[route] ?? 0)] as const)
      .filter(([, count]) => count > 0),
  );
}

const view = (...args: string[]) =>
  workspace.exec(
    "bash",
    ["-c", 'PATH="$(npm prefix)/node_modules/.bin:$PATH" exec pulumi-xcat view "$@"', "view", ...args],
    { allowFailure: true },
  );

const drift = (...args: string[]) =>
  workspace.exec(
    "bash",
    ["-c", 'PATH="$(npm prefix)/node_modules/.bin:$PATH" exec pulumi-xcat drift "$@"', "drift", ...args],
    {
      allowFailure: true,
    },
  );

beforeAll(async () => {
  emulator = await startEmulator({ bootSeconds: 0.5 });
  const sandbox = inject("e2eSandbox");
  labCopy = await labProgram(sandbox);
  workspace = await PulumiWorkspace.create({
    programDir: labCopy,
    sandboxDir: sandbox,
    env: { XCAT_URL: emulator.url, XCAT_USERNAME: "root", XCAT_PASSWORD: EMULATOR_DEFAULT_PASSWORD },
  });
  await workspace.setConfigs(
    { nodesPerRack: "4", vms: "0", pollSeconds: "1" },
    { bmcPassword: "lab-bmc-secret" },
  );
  await workspace.up();
});

afterAll(async () => {
  await workspace?.dispose();
  if (labCopy) await rm(labCopy, { recursive: true, force: true });
  await emulator?.close();
  console.log(`drift: ${((Date.now() - started) / 1000).toFixed(1)} s`);
});

describe("pulumi-xcat drift on the lab", () => {
  it("exits 0 on the clean lab, then names every hand edit, deletion and hand-made node by noderange and exits 3", async () => {
    const clean = await drift();
    expect(clean.exitCode, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(/^No drift: \d+ resources as the state holds them, nothing unmanaged\./);
    expect(clean.stdout).toContain("11 of 11 nodes under code on the stack's management node");

    const admin = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
    });
    await admin.nodes.update("r01n02", { ip: "10.0.9.2" });
    await admin.nodes.update("r01n04", { ip: "10.0.9.4" });
    await admin.nodes.update("r02n03", { room: "annex" });
    await admin.nodes.delete("r02n04");
    await admin.nodes.create("hand[01-02]", { groups: "compute,all", ip: "10.0.7.1" });
    await admin.nodes.setPower("r01n01", "off");
    await admin.close();

    const before = emulator.stats();
    const found = await drift();
    const after = emulator.stats();
    expect(found.exitCode, found.stderr).toBe(3);
    expect(found.stdout.trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        /^Drift: 3 changed by hand, 1 deleted by hand, 1 with power not as held, 2 not managed by the stack \(\d+ resources read\)\.$/,
      ),
      "- 1 node deleted by hand: r02n04",
      "~ ip changed by hand on r01n02,r01n04 (2 nodes)",
      "    r01n02: 10.0.1.2 → 10.0.9.2",
      "    r01n04: 10.0.1.4 → 10.0.9.4",
      "~ room changed by hand on r02n03 (1 node)",
      "    r02n03: lab → annex",
      "! power off (held on by compute-power) on r01n01 (1 node)",
      "? 2 nodes on the stack's management node not managed by the stack: hand[01-02]",
      "10 of 12 nodes under code on the stack's management node",
    ]);
    // The listing: five reads (and a token), besides what the refresh's reads cost.
    const listings = [
      "GET /nodes",
      "GET /groups/{groupname}",
      "GET /osimages",
      "GET /networks",
      "GET /policy/{policy_priority}",
    ];
    for (const route of listings) {
      const count = (after.byRoute[route] ?? 0) - (before.byRoute[route] ?? 0);
      expect(count, route).toBeGreaterThanOrEqual(1);
    }
    console.log(
      `drift on the lab: ${after.total - before.total} requests`,
      JSON.stringify(diff(before.byRoute, after.byRoute)),
    );
    // Nothing written: drift only reads (the refresh is a preview).
    const writes = Object.keys(after.byRoute).filter(
      (route) =>
        /^(POST|PUT|DELETE) /.test(route) &&
        route !== "POST /tokens" &&
        after.byRoute[route] !== before.byRoute[route],
    );
    expect(writes).toEqual([]);

    const markdown = await drift("--format", "markdown");
    expect(markdown.exitCode).toBe(3);
    expect(markdown.stdout).toContain(
      "| not managed by the stack xcat:Node | on the stack's management node | `hand[01-02]` | 2 |",
    );
    const json = JSON.parse((await drift("--format", "json")).stdout);
    expect(json.counts).toEqual({ deleted: 1, changed: 3, power: 1, deployment: 0, unmanaged: 2 });
    expect(json.coverage).toEqual([{ managementNode: "", nodes: { managed: 10, total: 12 } }]);
  });

  // pulumi-xcat view (issue #39) on the same stack and hand edits, without an engine run of its own.
  it("view --snapshot draws the lab's racks, the hand edits as drift and the hand-made nodes as not under code, in two requests", async () => {
    const file = join(labCopy, "rack.svg");
    const before = emulator.stats();
    const result = await view("--snapshot", file);
    const after = emulator.stats();
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`pulumi-xcat view: wrote ${file}.`);
    const svg = await readFile(file, "utf8");
    expect(svg).toContain("room lab, rack 1 (4)");
    expect(svg).toMatch(/U02 r01n02 [^<]* · drift</);
    expect(svg).toMatch(/U04 r01n04 [^<]* · drift</);
    expect(svg).toContain("room annex, rack 2 (1)");
    expect(svg).toMatch(/U03 r02n03 [^<]* · drift</);
    expect(svg).toMatch(/hand01 [^<]* · not under code</);
    expect(svg).toContain(
      "Held by the stack but not on the management node (deleted by hand, or not created yet): r02n04.",
    );
    expect(svg).not.toContain("lab-bmc-secret");
    // One table read and one power read (and a token): the whole cluster.
    expect(after.total - before.total).toBeLessThanOrEqual(3);
    expect(diff(before.byRoute, after.byRoute)).toMatchObject({
      "GET /tables/{tablelist}/rows": 1,
      "GET /nodes/{noderange}/power": 1,
    });
  });

  it("view serves the page on 127.0.0.1 from the CLI, answers /api/view with the drawing, and stops on Ctrl-C", async () => {
    // The view in the background, as a user runs it in a second shell; SIGINT is Ctrl-C.
    const script = [
      'log=$(mktemp); PATH="$(npm prefix)/node_modules/.bin:$PATH" pulumi-xcat view 2>"$log" & pid=$!',
      "url=''; while [ -z \"$url\" ] && kill -0 $pid 2>/dev/null; do sleep 0.5; url=$(grep -o 'http://127.0.0.1:[0-9]*/' \"$log\" | head -n 1); done",
      'node -e \'(async () => { for (;;) { const v = await (await fetch(process.argv[1] + "api/view")).json(); if (v.svg) { process.stdout.write(JSON.stringify(v)); return; } await new Promise((r) => setTimeout(r, 500)); } })()\' "$url"',
      'kill -INT $pid; wait $pid; code=$?; echo; echo "exit=$code"; cat "$log" >&2',
    ].join("\n");
    const result = await workspace.exec("bash", ["-c", script], { allowFailure: true });
    expect(result.stderr).toMatch(
      /pulumi-xcat view: stack \S+: open http:\/\/127\.0\.0\.1:\d+\/ \(reads the stack's management node/,
    );
    const [json, exit] = result.stdout.trimEnd().split("\n");
    expect(exit).toBe("exit=0");
    const answer = JSON.parse(json ?? "{}") as { svg?: string; status?: string };
    expect(answer.status).toMatch(/^Stack \S+, 12 nodes, read at /);
    expect(answer.svg).toMatch(/U02 r01n02 [^<]* · drift</);
  });

  it("with no stack selected, says to select one or pass --stack", async () => {
    await workspace.run(["stack", "unselect"]);
    try {
      const result = await drift();
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(
        "pulumi-xcat drift: no stack is selected in this project. Select one with `pulumi stack select <name>`",
      );
      const named = await drift("--stack", workspace.stackName, "--format", "json");
      expect(named.exitCode, named.stderr).toBe(3);
      const drawn = await view("--snapshot", join(labCopy, "no-stack.svg"));
      expect(drawn.exitCode).toBe(2);
      expect(drawn.stderr).toContain(
        "pulumi-xcat view: no stack is selected in this project. Select one with `pulumi stack select <name>`",
      );
    } finally {
      await workspace.run(["stack", "select", workspace.stackName]);
    }
  });
});
