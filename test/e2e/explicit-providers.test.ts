/**
 * The support matrix's "Explicit providers", "Two MNs" and "xCAT + Confluent" columns
 * (docs/support-matrix.md, issue #36 item 1), through the real engine with one YAML stack
 * (test/e2e/programs/explicit-providers): two xCAT management nodes, mnA and mnB, and a Confluent
 * server, each an explicit `pulumi:providers:xcat`, with every kind on each xCAT provider and the
 * kinds Confluent serves on its own. The stack is brought up once; the later steps change little:
 * hand edits on both management nodes found by refresh and put back; a change reviewed and
 * applied with examples/ci/review.sh (its pins read on mnA, mnB and Confluent; a node edited by
 * hand on mnB after the review refuses the apply); a bad value on mnB refused at preview; objects made by hand on mnB taken over with `adopt: true`, and one on mnB and one on
 * Confluent imported by id through their providers; `pulumi-xcat view --snapshot` drawing the three
 * servers (no engine run of its own); a timeout and a cancel of a Deployment on mnB and on
 * Confluent in the same runs; destroy. Emulator latency stays off: no step is about it.
 *
 * Each step asserts what each server holds afterwards, so a kind that went to the wrong server
 * (a provider whose connection was ignored) fails here.
 *
 * A rack on each xCAT management node is a NodeSet read from its CSV (rackA on mnA, rackB on mnB;
 * issue #36 item 1 and #38 items 2 and 6, support-matrix.md T155-T158), riding the same engine
 * runs: created by the first up; a cell changed by hand on mnB found by `preview --refresh --diff`
 * and by `pulumi-xcat drift` on mnB, put back by the hand-edit step's up; rackB's image roll part
 * of the reviewed change (review names its nodes by noderange on mnB; the apply is 1 PUT of it);
 * rb03 moved from rackB's rows to a Node of its own and back (release, adopt, retainOnDelete)
 * with no write on either management node.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { XcatClient } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { reportsOfOutputs } from "../../src/provider/node-set-reports";
import { waitForState } from "../support/wait-for-state";
import { diagnosticsOf } from "./support/engine-output";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const reviewScript = resolve(import.meta.dirname, "../../examples/ci/review.sh");

const PASSWORD_A = "xp-a-Pw-6120";
const PASSWORD_B = "xp-b-Pw-7342";
const PASSWORD_C = "xp-c-Pw-8854";
const IMAGE_A = "rhels9.4-x86_64-install-a";
const IMAGE_B = "rhels9.4-x86_64-install-b";
/** rackB's image after the reviewed roll. */
const IMAGE_B2 = "rhels9.4-x86_64-install-b2";
/** No XCAT_* of the test's own environment for pulumi-xcat: the providers say where to go. */
const NO_XCAT_ENV = { XCAT_URL: "", XCAT_USERNAME: "", XCAT_PASSWORD: "", XCAT_TOKEN: "" };

/** What the test makes by hand on mnB, outside the program (before the first up). */
const HAND_MADE = ["bhand01", "hand-b", "handnet-b", "bh01", "br01", "br02", "br03", "br04"];

/** Everything an xCAT management node holds of the program's kinds, by kind, but what was made by hand. */
function holdings(emulator: RunningEmulator) {
  const own = (names: string[]) => names.filter((name) => !HAND_MADE.includes(name));
  return {
    osimages: own(emulator.state.listObjects("osimage")),
    networks: own(emulator.state.listObjects("network")),
    groups: own(emulator.state.listObjects("group")).filter((group) => group !== "all"),
    nodes: own(emulator.state.listObjects("node")),
    policies: emulator.state
      .getRows("policy")
      .map((row) => String(row.priority))
      .filter((priority) => priority.startsWith("7.")),
    routes: own(emulator.state.getRows("routes").map((row) => String(row.routename))),
    tokenexpiredays: emulator.state.getRows("site").find((row) => row.key === "tokenexpiredays")?.value,
  };
}

/** Nodes with an entry in one of the emulator's name-service tables. */
function named(emulator: RunningEmulator, table: "_emu_etchosts" | "_emu_dns" | "_emu_dhcp"): string[] {
  return emulator.state
    .getRows(table)
    .map((row) => String(table === "_emu_dhcp" ? row.node : row.name))
    .sort();
}

/** One attribute of an object as the management node holds it. */
function emulatorAttr(
  emulator: RunningEmulator,
  type: "node" | "group" | "osimage" | "network",
  name: string,
  attr: string,
) {
  return emulator.state.getObject(type, name)?.[attr];
}

/** nodeset requests an emulator received: each starts a batch of a roll. */
function nodesets(emulator: RunningEmulator): number {
  return emulator.stats().byRoute["PUT /nodes/{noderange}/bootstate"] ?? 0;
}

/** Next-boot requests the Confluent emulator received for the hand-made nodes: one per batch. */
function bootsOnConfluent(confluent: RunningConfluentEmulator): number {
  return confluent.state
    .requests()
    .filter(
      (request) => request.method === "PUT" && /\/noderange\/cr[^/]*\/boot\/nextdevice$/.test(request.path),
    ).length;
}

/** Requests that may change something the Confluent emulator received (sessions aside). */
function confluentWrites(confluent: RunningConfluentEmulator): number {
  return confluent.state
    .requests()
    .filter((request) => request.method !== "GET" && !request.path.startsWith("/sessions")).length;
}

/** The resource entries of a generated YAML program (what follows its `resources:` line). */
function resourcesOf(code: string): string {
  const at = code.indexOf("resources:\n");
  return at < 0 ? code : code.slice(at + "resources:\n".length);
}

/** Objects made by hand on mnB, taken over with adopt (the node gets a value it lacked). */
const ADOPTED = `
  bhand01:
    type: xcat:index:Node
    properties:
      name: bhand01
      groups: [all]
      adopt: true
      attributes:
        mgt: ipmi
        ip: 10.2.0.77
        usercomment: managed by pulumi
    options:
      provider: \${mnB}
  routeHandB:
    type: xcat:index:TableRow
    properties:
      table: routes
      keys:
        routename: hand-b
      adopt: true
      values:
        net: 10.2.88.0
        mask: 255.255.255.0
        gateway: 10.2.88.254
    options:
      provider: \${mnB}
`;

/** A Deployment on mnB and one on Confluent, each of a node that never boots, with 10 s from the engine. */
const STUCK = `
  stuck:
    type: xcat:index:Deployment
    properties:
      nodes: [bh01]
      osimage: \${imageB.name}
      canary: 0
      pollSeconds: 0.5
      timeoutMinutes: 10
    options:
      provider: \${mnB}
      customTimeouts:
        create: 10s
  stuckC:
    type: xcat:index:Deployment
    properties:
      nodes: [ch01]
      osimage: rocky-9.4-x86_64-default
      canary: 0
      pollSeconds: 0.5
      timeoutMinutes: 10
    options:
      provider: \${cf}
      customTimeouts:
        create: 10s
`;

/** A roll on mnB and one on Confluent, of four nodes in batches of 2, whose first batch holds a node that never boots. */
const HAND_ROLL = `
  handRoll:
    type: xcat:index:Deployment
    properties:
      nodes: br[01-04]
      osimage: \${imageB.name}
      batchSize: 2
      concurrency: 1
      canary: 0
      pollSeconds: 0.5
      timeoutMinutes: 10
      cancelGraceSeconds: 2
    options:
      provider: \${mnB}
  handRollC:
    type: xcat:index:Deployment
    properties:
      nodes: [cr01, cr02, cr03, cr04]
      osimage: rocky-9.4-x86_64-default
      batchSize: 2
      concurrency: 1
      canary: 0
      pollSeconds: 0.5
      timeoutMinutes: 10
      cancelGraceSeconds: 2
    options:
      provider: \${cf}
`;

/** Node writes an emulator received, by route (a noderange in the path: xcat-behavior.md §1.3, §9.6). */
function nodeWrites(emulator: RunningEmulator) {
  const byRoute = emulator.stats().byRoute;
  return {
    post: byRoute["POST /nodes/{noderange}"] ?? 0,
    put: byRoute["PUT /nodes/{noderange}"] ?? 0,
    delete: byRoute["DELETE /nodes/{noderange}"] ?? 0,
  };
}

/**
 * rb03 taken out of rackB's rows into a Node of its own on mnB (issue #38 item 6, YAML): the set
 * releases the row (`release`), the Node takes the node as it is (`adopt`, its values those the set
 * gave it), and `retainOnDelete` lets the engine forget the Node later without deleting the node.
 */
const RB03_NODE = `
  rb03:
    type: xcat:index:Node
    properties:
      name: rb03
      groups: [compute-b, all]
      adopt: true
      attributes:
        provmethod: ${IMAGE_B2}
        room: rack-b
        ip: 10.2.1.3
        mac: 52:54:00:02:10:03
        bmc: 127.0.10.83
    options:
      provider: \${mnB}
      retainOnDelete: true
`;

/** Write requests an emulator received (the token requests aside). */
function writes(emulator: RunningEmulator): number {
  return Object.entries(emulator.stats().byRoute)
    .filter(([route]) => /^(PUT|POST|DELETE) /.test(route) && route !== "POST /tokens")
    .reduce((sum, [, count]) => sum + count, 0);
}

describe("every kind through explicit providers: two xCAT management nodes and Confluent in one YAML stack", () => {
  let mnA: RunningEmulator;
  let mnB: RunningEmulator;
  let cf: RunningConfluentEmulator;
  let adminA: XcatClient;
  let adminB: XcatClient;
  let ws: PulumiWorkspace;
  let project: string;
  let baseProgram: string;
  /** What the first `pulumi up` printed. */
  let upOutput = "";
  /** The YAML `pulumi import` wrote for the network it imported. */
  let importedCode = "";
  /** rackB's inventory as the program was given it. */
  let rackBCsv = "";
  /** What review.sh's review printed of the reviewed change, and the node writes of its apply. */
  let reviewed:
    | { output: string; a: ReturnType<typeof nodeWrites>; b: ReturnType<typeof nodeWrites> }
    | undefined;

  /** The program as written, with `extra` resources appended (the file ends in `resources:`). */
  const writeProgram = (...extra: string[]) => writeFileSync(project, [baseProgram, ...extra].join(""));

  beforeAll(async () => {
    [mnA, mnB, cf] = await Promise.all([
      startEmulator({ password: PASSWORD_A, bootSeconds: 1 }),
      // bh01 hangs in the installer (the timeout step), br01 too (the cancel step's first batch).
      startEmulator({ user: "admin-b", password: PASSWORD_B, bootSeconds: 1, hangNodes: ["bh01", "br01"] }),
      // On Confluent too: ch01 for the timeout, cr01 in the cancel's first batch.
      startConfluentEmulator({
        user: "admin-c",
        password: PASSWORD_C,
        bootSeconds: 1,
        hangNodes: ["ch01", "cr01"],
      }),
    ]);
    adminA = new XcatClient({ url: mnA.url, username: "root", password: PASSWORD_A });
    adminB = new XcatClient({ url: mnB.url, username: "admin-b", password: PASSWORD_B });
    // Made by hand on mnB, outside the program: a node and a routes row to take over with
    // adopt, a network to import by id, and nodes for the timeout and the cancel.
    await adminB.nodes.create("bhand01", { groups: "all", mgt: "ipmi", ip: "10.2.0.77", room: "hand-room" });
    await adminB.tables.setRows(
      "routes",
      { routename: "hand-b" },
      { net: "10.2.88.0", mask: "255.255.255.0" },
    );
    await adminB.networks.create("handnet-b", {
      net: "10.2.77.0",
      mask: "255.255.255.0",
      gateway: "10.2.77.1",
    });
    for (const noderange of ["bh01", "br[01-04]"])
      await adminB.nodes.create(noderange, {
        groups: "all",
        mgt: "ipmi",
        netboot: "xnba",
        mac: "02:00:00:00:02:01",
        ip: "|\\D+(\\d+)$|10.2.9.($1+0)|",
        bmc: "|\\D+(\\d+)$|127.0.10.($1+40)|",
      });
    const adminC = new ConfluentClient({ url: cf.url, username: "admin-c", password: PASSWORD_C });
    await adminC.groups.create("hand-c", { "hardwaremanagement.method": "ipmi" });
    for (const [index, node] of ["ch01", "cr01", "cr02", "cr03", "cr04", "chand01"].entries())
      await adminC.nodes.create(node, {
        groups: ["hand-c"],
        "hardwaremanagement.manager": `127.0.10.${60 + index}`,
      });
    await adminC.close();
    const sandbox = inject("e2eSandbox");
    ws = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/explicit-providers"),
      sandboxDir: sandbox,
      // pulumi-resource-xcat from the installed package, as `npm install` puts it on a project's PATH.
      env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` },
    });
    project = join(ws.programDir, "Pulumi.yaml");
    baseProgram = readFileSync(project, "utf8");
    rackBCsv = readFileSync(join(ws.programDir, "inventory", "rack-b.csv"), "utf8");
    await ws.setConfigs(
      { urlA: mnA.url, urlB: mnB.url, urlC: cf.url },
      { passwordA: PASSWORD_A, passwordB: PASSWORD_B, passwordC: PASSWORD_C },
    );
  });

  afterAll(async () => {
    await ws?.dispose();
    await adminA?.close();
    await adminB?.close();
    await mnA?.close();
    await mnB?.close();
    await cf?.close();
  });

  it("up creates every kind on each management node through its own provider, and on Confluent the kinds it serves", async () => {
    const { stdout, stderr } = await ws.run(["up", "--yes", "--skip-preview"]);
    upOutput = stdout + stderr;
    // The stack, three providers, 14 resources on each xCAT, 4 on Confluent.
    expect(await ws.lastChanges(), upOutput).toEqual({ create: 36 });
    for (const [emulator, own, other] of [
      [mnA, "a", "b"],
      [mnB, "b", "a"],
    ] as const) {
      expect(holdings(emulator)).toEqual({
        osimages: [`rhels9.4-x86_64-install-${own}`],
        networks: [`mgmt-${own}`],
        groups: [`compute-${own}`],
        nodes: [
          `${own}01`,
          `${own}02`,
          `${own}kvm01`,
          `${own}vm01`,
          `r${own}01`,
          `r${own}02`,
          `r${own}03`,
        ].sort(),
        policies: [own === "a" ? "7.1" : "7.2"],
        routes: [`storage-${own}`],
        tokenexpiredays: own === "a" ? "1" : "2",
      });
      expect(JSON.stringify(emulator.state.getRows("routes"))).not.toContain(`storage-${other}`);
      // The VirtualMachine's guest, made by mkvm on its own management node.
      expect(emulator.state.getObject("node", `${own}vm01`)).toMatchObject({ vmcpus: "2", vmmemory: "2048" });
      expect(emulator.state.getHardware(`${own}vm01`).vm?.disks).toHaveLength(1);
      // Deployed and powered on by the Deployment and PowerState of its own provider.
      expect(emulator.state.getObject("node", `${own}01`)).toMatchObject({
        provmethod: `rhels9.4-x86_64-install-${own}`,
      });
      expect(emulator.state.getHardware(`${own}02`).power).toBe("on");
    }
    // c01 beside the nodes made by hand there, and nothing of mnA's or mnB's.
    expect(cf.state.nodeNames()).toEqual(["c01", "chand01", "ch01", "cr01", "cr02", "cr03", "cr04"].sort());
    expect(cf.state.groupNames()).toContain("compute-c");
    expect(cf.state.power("c01")).toBe("on");
    const outputs = await ws.outputs();
    expect(outputs.powerA).toEqual({ a01: "on", a02: "on" });
    expect(outputs.powerB).toEqual({ b01: "on", b02: "on" });
    expect(outputs.powerC).toEqual({ c01: "on" });
    for (const states of [outputs.statesA, outputs.statesB, outputs.statesC])
      for (const state of Object.values(states as Record<string, { deployed: boolean }>))
        expect(state.deployed).toBe(true);
  });

  it("up shows each Deployment's progress under it, on mnA, mnB and Confluent, without -v", () => {
    for (const [roll, range, image] of [
      ["rollA", "a[01-02]", IMAGE_A],
      ["rollB", "b[01-02]", IMAGE_B],
    ] as const) {
      const progress = diagnosticsOf(upOutput, `xcat:index:Deployment (${roll})`);
      expect(progress, upOutput).toContainEqual(
        expect.stringMatching(
          new RegExp(`^xcat:Deployment ${range.replace(/[[\]]/g, "\\$&")}: ${image} sent to 2 node\\(s\\)`),
        ),
      );
      expect(progress.at(-1), upOutput).toBe(`xcat:Deployment ${range}: booted 2`);
    }
    const confluent = diagnosticsOf(upOutput, "xcat:index:Deployment (rollC)");
    expect(confluent[0], upOutput).toMatch(
      /^xcat:Deployment c01: rocky-9.4-x86_64-default sent to 1 node\(s\)/,
    );
    expect(confluent.at(-1), upOutput).toBe("xcat:Deployment c01: completed 1");
  });

  it("each management node runs the name services its provider asks for: all on mnA, /etc/hosts alone on mnB", () => {
    expect(diagnosticsOf(upOutput, "xcat:index:Node (a01)"), upOutput).toContain(
      "xcat:Node a01: name services: makehosts, makedns, makedhcp",
    );
    expect(diagnosticsOf(upOutput, "xcat:index:Node (b01)"), upOutput).toContain(
      "xcat:Node b01: name services: makehosts",
    );
    expect(named(mnA, "_emu_etchosts")).toEqual(expect.arrayContaining(["a01", "a02"]));
    expect(named(mnA, "_emu_dns")).toEqual(expect.arrayContaining(["a01", "a02"]));
    expect(named(mnB, "_emu_etchosts")).toEqual(expect.arrayContaining(["b01", "b02"]));
    // mnB's provider says nameServices: [hosts]: no makedns there.
    expect(named(mnB, "_emu_dns")).toEqual([]);
    expect(named(mnA, "_emu_etchosts").some((node) => node.startsWith("b"))).toBe(false);
  });
  it("a NodeSet through each xCAT provider: each rack from its CSV on its own management node, none of it on the other", async () => {
    // Each set's nodes on its own server only (no other resource of the program has these names).
    for (const [emulator, own, other] of [
      [mnA, "a", "b"],
      [mnB, "b", "a"],
    ] as const) {
      expect(emulator.state.listObjects("node").filter((node) => node.startsWith("r"))).toEqual([
        `r${own}01`,
        `r${own}02`,
        `r${own}03`,
      ]);
      expect(emulator.state.getObject("node", `r${own}02`)).toMatchObject({
        groups: `compute-${own},all`,
        ip: `10.${own === "a" ? 1 : 2}.1.2`,
        mac: `52:54:00:0${own === "a" ? 1 : 2}:10:02`,
        bmc: `127.0.10.${own === "a" ? 72 : 82}`,
        provmethod: `rhels9.4-x86_64-install-${own}`,
        room: `rack-${own}`,
      });
      expect(emulator.state.getObject("node", `r${other}01`)).toBeUndefined();
    }
    // The set's nodes were read back where they were made: each set's nodeAttributes per node.
    const { resources } = await ws.exportState();
    const rackB = resources.find((resource) => resource.urn.endsWith("::rackB"));
    expect(JSON.stringify(rackB)).toContain("pulumi:providers:xcat::mnB");
    const held = reportsOfOutputs((rackB as unknown as { outputs: unknown }).outputs);
    expect(Object.keys(held)).toEqual(["rb01", "rb02", "rb03"]);
    expect(held.rb03).toMatchObject({ ip: "10.2.1.3", mgt: "ipmi" });
    expect(await ws.outputs()).toMatchObject({ rackANodes: "ra[01-03]", rackBNodes: "rb[01-03]" });
    // mnB's provider runs /etc/hosts alone, for the set's nodes too.
    expect(named(mnB, "_emu_etchosts")).toEqual(expect.arrayContaining(["rb01", "rb02", "rb03"]));
    expect(named(mnA, "_emu_dns")).toEqual(expect.arrayContaining(["ra01", "ra02", "ra03"]));
  });

  it("a cell of rackB changed by hand on mnB shows in preview --refresh --diff as that node and attribute, and drift names it on mnB, counting each set's nodes on its own management node", async () => {
    await adminB.nodes.update("rb02", { ip: "10.9.9.2" });
    const before = [writes(mnA), writes(mnB), confluentWrites(cf)];
    const preview = await ws.run(["preview", "--refresh", "--diff"]);
    // pulumi runs with --color never: rows, the node, its ip, from what mnB holds to the CSV's value.
    expect(preview.stdout).toMatch(
      /~ rows\s*:[\s\S]*~ rb02\s*:[\s\S]*~ ip\s*: "10\.9\.9\.2" => "10\.2\.1\.2"/,
    );
    expect(preview.stdout).not.toMatch(/~ r[ab]0[13]\s*:|~ ra02\s*:/);

    const drift = await ws.exec("pulumi-xcat", ["drift"], { allowFailure: true, env: NO_XCAT_ENV });
    const lines = drift.stdout.trimEnd().split("\n");
    expect(drift.exitCode, drift.stdout + drift.stderr).toBe(3);
    const edited = lines.findIndex((line) =>
      /^~ ip \(NodeSet rackB\) changed by hand on rb02 \(1 node\)/.test(line),
    );
    expect(edited, drift.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[edited], drift.stdout).toContain(`provider mnB (${mnB.url}`);
    expect(lines[edited + 1], drift.stdout).toBe("    rb02: 10.2.1.2 → 10.9.9.2");
    // Coverage per management node: rackA's 3 nodes on mnA, rackB's on mnB (beside a01, a02, the
    // kvm host and its guest; on mnB the 6 nodes made by hand are not under code).
    expect(lines, drift.stdout).toContain(`7 of 7 nodes under code on provider mnA (${mnA.url})`);
    expect(lines, drift.stdout).toContain(`7 of 13 nodes under code on provider mnB (${mnB.url})`);
    // Both only read.
    expect([writes(mnA), writes(mnB), confluentWrites(cf)]).toEqual(before);
    for (const password of [PASSWORD_A, PASSWORD_B, PASSWORD_C])
      expect(preview.stdout + preview.stderr + drift.stdout + drift.stderr).not.toContain(password);
    // The next step's up --refresh puts the cell back.
  });

  it("hand edits on both management nodes are found by refresh, and up puts each back on its own server", async () => {
    await adminA.networks.update("mgmt-a", { gateway: "10.1.0.99" });
    await adminA.policy.update("7.1", { commands: "lsdef" });
    await adminA.tables.setRows("routes", { routename: "storage-a" }, { gateway: "10.1.0.99" });
    await adminA.osimages.update(IMAGE_A, { profile: "edited-by-hand" });
    await adminB.globalconf.setAttrs({ tokenexpiredays: "99" });
    await adminB.groups.update("compute-b", { usercomment: "edited by hand" });
    await adminB.nodes.update("b02", { room: "moved-by-hand" });
    // The guest's memory changed behind the program's back (chdef, as after a chvm by hand).
    await adminB.nodes.update("bvm01", { vmmemory: "4096" });
    const beforeC = confluentWrites(cf);
    const { stdout, stderr } = await ws.run(["up", "--refresh", "--yes", "--skip-preview"]);
    const output = stdout + stderr;
    // Without the refresh the state would match the program and up would change nothing: each
    // update is a hand edit the refresh found, and up put back.
    expect(await ws.lastChanges(), output).toMatchObject({ update: 9 });
    for (const resource of [
      "netA",
      "policyA",
      "routeA",
      "imageA",
      "expiryB",
      "computeB",
      "b02",
      "vmB",
      "rackB",
    ])
      expect(output).toMatch(new RegExp(`~ +xcat:index:\\w+ +${resource} +updated`));
    expect(emulatorAttr(mnA, "network", "mgmt-a", "gateway")).toBe("10.1.0.254");
    expect(mnA.state.getRows("policy").find((row) => row.priority === "7.1")?.commands).toBe("lsdef,nodels");
    expect(mnA.state.getRows("routes").find((row) => row.routename === "storage-a")?.gateway).toBe(
      "10.1.0.254",
    );
    expect(emulatorAttr(mnA, "osimage", IMAGE_A, "profile")).toBe("compute");
    expect(mnB.state.getRows("site").find((row) => row.key === "tokenexpiredays")?.value).toBe("2");
    expect(emulatorAttr(mnB, "group", "compute-b", "usercomment")).toBe("rack b");
    expect(emulatorAttr(mnB, "node", "b02", "room")).toBe("hall-b");
    expect(emulatorAttr(mnB, "node", "bvm01", "vmmemory")).toBe("2048");
    // rackB's cell edited by hand in the step before, put back on mnB.
    expect(emulatorAttr(mnB, "node", "rb02", "ip")).toBe("10.2.1.2");
    // Confluent was read, not written.
    expect(confluentWrites(cf)).toBe(beforeC);
  });

  // pulumi-xcat view (issue #39 item 5) on this stack of three servers, with no engine run of its own.
  it("T143 view --snapshot draws mnA's, mnB's and Confluent's nodes, each server in its own section headed by its URL, with what is not under code", async () => {
    const file = join(ws.programDir, "racks.svg");
    const viewReads = (emulator: RunningEmulator) => emulator.stats().total;
    const [beforeA, beforeB, beforeC] = [viewReads(mnA), viewReads(mnB), cf.state.requests().length];
    const result = await ws.exec("pulumi-xcat", ["view", "--snapshot", file], { allowFailure: true });
    expect(result.exitCode, result.stderr).toBe(0);
    const svg = readFileSync(file, "utf8");
    // By provider name; each URL as the program gives it.
    const sections = [...svg.matchAll(/server (\d): ([^<]+)</g)].map((match) => match[2]);
    expect(sections).toEqual([
      `provider cf (${cf.url}, Confluent)`,
      `provider mnA (${mnA.url}, xCAT)`,
      `provider mnB (${mnB.url}, xCAT)`,
    ]);
    // Each node in its own server's section, the program's under code, the hand-made ones not.
    expect(svg).toMatch(/data-node="c01" data-server="0"/);
    expect(svg).toMatch(/data-node="a01" data-server="1"/);
    expect(svg).toMatch(/data-node="b02" data-server="2"/);
    expect(svg).toMatch(
      /data-node="chand01" data-server="0"[\s\S]*?<text[^>]*>chand01 [^<]* · not under code</,
    );
    expect(svg).toMatch(
      /data-node="bhand01" data-server="2"[\s\S]*?<text[^>]*>bhand01 [^<]* · not under code</,
    );
    expect(svg).not.toMatch(/a01 [^<]*not under code/);
    expect(svg).not.toMatch(/c01 [^<]*not under code/);
    for (const password of [PASSWORD_A, PASSWORD_B, PASSWORD_C]) {
      expect(svg).not.toContain(password);
      expect(result.stdout + result.stderr).not.toContain(password);
    }
    // Two reads per server for the whole cluster (and a token on each xCAT one).
    expect(viewReads(mnA) - beforeA).toBeLessThanOrEqual(3);
    expect(viewReads(mnB) - beforeB).toBeLessThanOrEqual(3);
    expect(
      cf.state
        .requests()
        .slice(beforeC)
        .map((request) => `${request.method} ${request.path}`)
        .filter((request) => !request.includes("/sessions/")),
    ).toEqual([
      "GET /confluent-api/noderange/everything/attributes/current",
      "GET /confluent-api/noderange/everything/power/state",
    ]);
  });

  it("review.sh pins each node on its own provider's server: a node edited by hand on mnB after the review refuses the apply, naming node and provider; then the reviewed plan applies on all three", async () => {
    // The pull request: a room on mnA and on mnB, an address on Confluent, rackB's image roll.
    const reviewedProgram = baseProgram
      .replace("bmc: 127.0.10.1\n        room: hall-a", "bmc: 127.0.10.1\n        room: hall-a2")
      .replace("bmc: 127.0.10.12\n        room: hall-b", "bmc: 127.0.10.12\n        room: hall-b2")
      .replace("ip: 10.3.0.1\n", "ip: 10.3.0.2\n")
      .replace(`provmethod: ${IMAGE_B}, room: rack-b`, `provmethod: ${IMAGE_B2}, room: rack-b`);
    writeFileSync(project, reviewedProgram);
    // Confluent deploys by profile: rollC's image is none of the stack's Osimages, so the policy
    // pack's deployment-image-declared is told it is made outside the stack, as a site would.
    const policyConfig = join(ws.programDir, "policy-config.json");
    writeFileSync(
      policyConfig,
      JSON.stringify({ "deployment-image-declared": { externalImages: ["rocky-9.4-x86_64-default"] } }),
    );
    // The stack's own management node (XCAT_*) is mnA's, as a CI job's secrets would give it; no
    // resource uses it, and with it set review.sh starts no emulator.
    const script = (mode: string) =>
      ws.exec("bash", [reviewScript, mode], {
        allowFailure: true,
        env: {
          STACK: ws.stackName,
          POLICY_CONFIG: policyConfig,
          XCAT_URL: mnA.url,
          XCAT_USERNAME: "root",
          XCAT_PASSWORD: PASSWORD_A,
        },
      });
    const review = await script("preview");
    expect(review.exitCode, review.stdout + review.stderr).toBe(0);
    const pinned = review.stdout.slice(review.stdout.indexOf("Pinned for the apply"));
    expect(pinned).toMatch(/^ {2}a01 on provider mnA \(http:\/\/127\.0\.0\.1:\d+\S*, xCAT\) room hall-a$/m);
    expect(pinned).toMatch(/^ {2}b02 on provider mnB \(http:\/\/127\.0\.0\.1:\d+\S*, xCAT\) room hall-b$/m);
    expect(pinned).toMatch(
      /^ {2}c01 on provider cf \(http:\/\/127\.0\.0\.1:\d+\S*, Confluent\) ip 10\.3\.0\.1$/m,
    );
    // rackB's roll pins each of its nodes on mnB, where the set writes.
    for (const node of ["rb01", "rb02", "rb03"])
      expect(pinned).toMatch(
        new RegExp(
          `^ {2}${node} on provider mnB \\(http://127\\.0\\.0\\.1:\\d+\\S*, xCAT\\) provmethod ${IMAGE_B}$`,
          "m",
        ),
      );

    // After the approval, b02's room is changed by hand on mnB.
    await adminB.nodes.update("b02", { room: "moved-after-review" });
    const before = [writes(mnA), writes(mnB), confluentWrites(cf)];
    const refused = await script("up");
    expect(refused.exitCode, refused.stdout + refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(
      /b02 on provider mnB \(http:\/\/127\.0\.0\.1:\d+\S*, xCAT\) room: reviewed hall-b, now moved-after-review/,
    );
    expect(refused.stderr).not.toMatch(/a01|c01/);
    expect(refused.stderr).toContain("Nothing was applied");
    expect([writes(mnA), writes(mnB), confluentWrites(cf)]).toEqual(before);

    // The room back as reviewed: the plan applies, each change on its own server.
    await adminB.nodes.update("b02", { room: "hall-b" });
    const beforeApply = { a: nodeWrites(mnA), b: nodeWrites(mnB) };
    const applied = await script("up");
    expect(applied.exitCode, applied.stdout + applied.stderr).toBe(0);
    // a01's and b02's rooms, c01's ip, and rackB's roll: each of its 3 nodes' provmethod.
    expect(applied.stdout).toContain("The values the review pinned still hold (6).");
    expect(await ws.lastChanges()).toMatchObject({ update: 4 });
    const afterApply = { a: nodeWrites(mnA), b: nodeWrites(mnB) };
    reviewed = {
      output: review.stdout,
      a: {
        post: afterApply.a.post - beforeApply.a.post,
        put: afterApply.a.put - beforeApply.a.put,
        delete: afterApply.a.delete - beforeApply.a.delete,
      },
      b: {
        post: afterApply.b.post - beforeApply.b.post,
        put: afterApply.b.put - beforeApply.b.put,
        delete: afterApply.b.delete - beforeApply.b.delete,
      },
    };
    expect(emulatorAttr(mnA, "node", "a01", "room")).toBe("hall-a2");
    expect(emulatorAttr(mnB, "node", "b02", "room")).toBe("hall-b2");
    expect(emulatorAttr(mnA, "node", "b02", "room")).toBeUndefined();
    expect(cf.state.nodeAttributes("c01")?.["net.ipv4_address"]).toMatchObject({ value: "10.3.0.2" });
    for (const text of [review.stdout, review.stderr, refused.stderr, applied.stdout, applied.stderr])
      for (const password of [PASSWORD_A, PASSWORD_B, PASSWORD_C]) expect(text).not.toContain(password);
    // The later steps start from the program as applied.
    baseProgram = reviewedProgram;
  });

  it("the reviewed change's rackB roll: review names rb[01-03] on mnB's provider, and the apply is 1 PUT of the set on mnB", () => {
    const lines = (reviewed?.output ?? "").trimEnd().split("\n");
    const roll = lines.indexOf(`~ 3 nodes rb[01-03] (NodeSet rackB): provmethod: ${IMAGE_B} → ${IMAGE_B2}`);
    expect(roll, reviewed?.output).toBeGreaterThan(0);
    // Under mnB's heading, the last one above the line.
    expect(
      lines.slice(0, roll).findLast((line) => /^On /.test(line)),
      reviewed?.output,
    ).toMatch(/^On provider mnB\b/);
    expect(reviewed?.output).not.toMatch(/NodeSet rackA|\d NodeSets?\b/);
    // mnB: b02's room and the roll of rackB's 3 nodes, one PUT each; mnA: a01's room alone.
    expect(reviewed?.b).toEqual({ post: 0, put: 2, delete: 0 });
    expect(reviewed?.a).toEqual({ post: 0, put: 1, delete: 0 });
    for (const node of ["rb01", "rb02", "rb03"])
      expect(emulatorAttr(mnB, "node", node, "provmethod")).toBe(IMAGE_B2);
    expect(emulatorAttr(mnA, "node", "ra01", "provmethod")).toBe(IMAGE_A);
  });

  it("a bad value on a resource of mnB's provider is refused at preview, naming resource and field, and nothing is written", async () => {
    writeFileSync(
      project,
      baseProgram.replace("net: 10.2.0.0\n      mask: 255.255.0.0", "net: 10.2.0.0\n      mask: 255.0.255.0"),
    );
    const before = [writes(mnA), writes(mnB)];
    const { exitCode, stdout, stderr } = await ws.run(["preview"], { allowFailure: true });
    const output = stdout + stderr;
    expect(exitCode, output).not.toBe(0);
    expect(output).toMatch(
      /xcat:index:Network resource 'netB': property mask value \{255\.0\.255\.0\} has a problem: mask '255\.0\.255\.0' is not a contiguous netmask/,
    );
    expect([writes(mnA), writes(mnB)]).toEqual(before);
    expect(emulatorAttr(mnB, "network", "mgmt-b", "mask")).toBe("255.255.0.0");
  });

  it("pulumi import takes a network made by hand on mnB and a node on Confluent by their ids, each through its provider, writing nothing", async () => {
    writeProgram();
    const importFile = join(ws.programDir, "import.json");
    const generated = join(ws.programDir, "imported.yaml");
    const urnOf = (provider: string) =>
      `urn:pulumi:${ws.stackName}::explicit-providers::pulumi:providers:xcat::${provider}`;
    writeFileSync(
      importFile,
      JSON.stringify({
        nameTable: { mnB: urnOf("mnB"), cf: urnOf("cf") },
        resources: [
          // `pulumi import` protects what it imports unless told otherwise; destroy must remove them.
          { type: "xcat:index:Network", name: "handnetB", id: "handnet-b", provider: "mnB", protect: false },
          { type: "xcat:index:Node", name: "handC", id: "chand01", provider: "cf", protect: false },
        ],
      }),
    );
    const before = [writes(mnA), writes(mnB)];
    const beforeC = confluentWrites(cf);
    await ws.run(["import", "--file", importFile, "--protect=false", "--yes", "--out", generated]);
    expect(await ws.lastChanges()).toMatchObject({ import: 2 });
    expect([writes(mnA), writes(mnB)]).toEqual(before);
    expect(confluentWrites(cf)).toBe(beforeC);
    importedCode = readFileSync(generated, "utf8");
    // The YAML the engine writes names the type by its short token, which YAML resolves the same.
    expect(importedCode).toMatch(/handnetB:\n\s+type: xcat:(index:)?Network/);
    expect(importedCode).toMatch(/gateway: 10\.2\.77\.1/);
    expect(importedCode).toMatch(/handC:\n\s+type: xcat:(index:)?Node/);
    expect(importedCode).toMatch(/provider: \$\{mnB\}/);
    expect(importedCode).toMatch(/provider: \$\{cf\}/);
    const { resources } = await ws.exportState();
    const network = resources.find((resource) => resource.urn.endsWith("::handnetB"));
    expect(network?.id).toBe("handnet-b");
    expect(JSON.stringify(network)).toContain(urnOf("mnB"));
    const node = resources.find((resource) => resource.urn.endsWith("::handC"));
    expect(node?.id).toBe("chand01");
    expect(JSON.stringify(node)).toContain(urnOf("cf"));
  });

  it("adopt: true on mnB takes over a node and a routes row made by hand without re-creating them; what was imported has no changes", async () => {
    writeProgram(resourcesOf(importedCode), ADOPTED);
    const beforeA = writes(mnA);
    const beforeDeletes = mnB.stats().byRoute["DELETE /nodes/{noderange}"] ?? 0;
    const { stdout, stderr } = await ws.run(["up", "--yes", "--skip-preview"]);
    const output = stdout + stderr;
    expect(await ws.lastChanges(), output).toEqual({ create: 2, same: 38 });
    expect(output).toMatch(/takes over the existing node 'bhand01'/);
    // Taken over, not made again: the value set by hand and not in the program is still there.
    expect(mnB.state.getObject("node", "bhand01")).toMatchObject({
      room: "hand-room",
      usercomment: "managed by pulumi",
    });
    expect(mnB.state.getRows("routes").find((row) => row.routename === "hand-b")?.gateway).toBe(
      "10.2.88.254",
    );
    expect(mnB.stats().byRoute["DELETE /nodes/{noderange}"] ?? 0).toBe(beforeDeletes);
    expect(writes(mnA)).toBe(beforeA);
  });

  it("moves rb03 from rackB's rows to a Node on mnB and back, in YAML, with no write to either management node, its values unchanged", async () => {
    const inventory = join(ws.programDir, "inventory", "rack-b.csv");
    const held = mnB.state.getObject("node", "rb03");
    const before = [writes(mnA), writes(mnB), confluentWrites(cf)];

    // Out: the row leaves the CSV, the set releases it, the Node adopts the node as it is.
    writeFileSync(inventory, rackBCsv.replace(/^rb03,.*\n/m, ""));
    const released = baseProgram.replace(
      "        fn::readFile: ./inventory/rack-b.csv\n",
      "        fn::readFile: ./inventory/rack-b.csv\n      release: rb03\n",
    );
    expect(released).not.toBe(baseProgram);
    writeFileSync(project, [released, resourcesOf(importedCode), ADOPTED, RB03_NODE].join(""));
    const out = await ws.run(["up", "--yes", "--skip-preview"]);
    expect(await ws.lastChanges(), out.stdout + out.stderr).toMatchObject({ create: 1, update: 1 });
    expect(await ws.lastChanges()).not.toHaveProperty("delete");
    expect(out.stdout + out.stderr).toContain("released the node 'rb03'");
    expect([writes(mnA), writes(mnB), confluentWrites(cf)]).toEqual(before);
    expect(mnB.state.getObject("node", "rb03")).toEqual(held);
    expect(await ws.outputs()).toMatchObject({ rackBNodes: "rb[01-02]" });

    // Back: the row returns to the CSV; the engine forgets the Node (retainOnDelete), the set
    // finds the node holding its values and takes it without a write.
    writeFileSync(inventory, rackBCsv);
    writeProgram(resourcesOf(importedCode), ADOPTED);
    const preview = await ws.run(["preview", "--diff"]);
    // pkg/backend/display/object_diff.go:66-84: a retained delete is shown as such to the reviewer.
    expect(preview.stdout.match(/\(delete\[retain\]\)/g), preview.stdout).toHaveLength(1);
    expect(preview.stdout).toMatch(/\(delete\[retain\]\)[^\n]*\n\s*\[id=rb03\]/);
    const back = await ws.run(["up", "--yes", "--skip-preview"]);
    expect(await ws.lastChanges(), back.stdout + back.stderr).toMatchObject({ delete: 1, update: 1 });
    expect([writes(mnA), writes(mnB), confluentWrites(cf)]).toEqual(before);
    expect(mnB.state.getObject("node", "rb03")).toEqual(held);
    expect(await ws.outputs()).toMatchObject({ rackBNodes: "rb[01-03]" });
  });

  it("a Deployment on mnB and one on Confluent with customTimeouts create 10s fail when they run out, naming each hanging node", async () => {
    writeProgram(resourcesOf(importedCode), ADOPTED, STUCK);
    const nodesetsA = nodesets(mnA);
    const result = await ws.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    const output = result.stdout + result.stderr;
    expect(result.exitCode, output).not.toBe(0);
    const timedOut = /bh01: timed out after ([\d.]+) min in status [\w-]+/.exec(output);
    expect(timedOut, output).not.toBeNull();
    // The roll's own limit is 10 minutes: the wait it was allowed is what remained of the
    // engine's 10 seconds when the Create began, so the engine's deadline reached mnB's provider.
    expect(Number(timedOut?.[1])).toBeGreaterThan(0);
    expect(Number(timedOut?.[1])).toBeLessThanOrEqual(0.17);
    const timedOutC = /ch01: timed out after ([\d.]+) min/.exec(output);
    expect(timedOutC, output).not.toBeNull();
    expect(Number(timedOutC?.[1])).toBeLessThanOrEqual(0.17);
    expect(nodesets(mnA)).toBe(nodesetsA);
  });

  it("SIGINT during a roll on mnB and one on Confluent, in batches of 2, starts no later batch on either, and says the rolls were cancelled", async ({
    signal,
  }) => {
    writeProgram(resourcesOf(importedCode), ADOPTED, HAND_ROLL);
    const before = nodesets(mnB);
    const beforeC = bootsOnConfluent(cf);
    const up = ws.start(["up", "--yes", "--skip-preview"], { allowFailure: true });
    // The states themselves, with no deadline of their own (issue #40): the test's timeout, or
    // the up ending without them, ends the wait.
    const until = { ended: up.result, what: "pulumi up" };
    await waitForState(() => nodesets(mnB) - before >= 1, "the first batch's nodeset on mnB", {
      signal,
      until,
    });
    await waitForState(() => bootsOnConfluent(cf) - beforeC >= 1, "the first batch's boot on Confluent", {
      signal,
      until,
    });
    up.signal("SIGINT");
    const result = await up.result;
    const output = `${result.stdout}${result.stderr}`;
    expect(result.exitCode, output).not.toBe(0);
    // br01 and cr01 never boot, so neither first batch can end before the cancel: no second one.
    expect(nodesets(mnB) - before, output).toBe(1);
    expect(bootsOnConfluent(cf) - beforeC, output).toBe(1);
    expect(diagnosticsOf(output, "xcat:index:Deployment (handRollC)").join("\n"), output).toMatch(
      /the roll was cancelled/,
    );
    expect(diagnosticsOf(output, "xcat:index:Deployment (handRoll)").join("\n"), output).toMatch(
      /the roll was cancelled/,
    );
    expect(mnB.state.getObject("node", "br03")?.provmethod).toBeUndefined();
  });

  it("destroy deletes every object of the stack from its own server and leaves what was made by hand alone", async () => {
    const { stdout, stderr } = await ws.run(["destroy", "--yes", "--skip-preview"]);
    const output = stdout + stderr;
    for (const emulator of [mnA, mnB])
      expect(holdings(emulator), output).toEqual({
        osimages: [],
        networks: [],
        groups: [],
        nodes: [],
        policies: [],
        routes: [],
        tokenexpiredays: undefined,
      });
    // The imported network and the adopted objects were the stack's: gone too.
    expect(mnB.state.listObjects("network")).toEqual([]);
    expect(mnB.state.listObjects("node")).toEqual(["bh01", "br01", "br02", "br03", "br04"]);
    expect(mnB.state.getRows("routes")).toEqual([]);
    // The imported chand01 was the stack's: gone too.
    expect(cf.state.nodeNames()).toEqual(["ch01", "cr01", "cr02", "cr03", "cr04"]);
    expect(cf.state.groupNames()).not.toContain("compute-c");
    // mnB's provider runs /etc/hosts alone: its deletes send no name service, and say so.
    expect(output).toContain(
      "xcat:Node b01: name services: none sent (its /etc/hosts line stays: xCAT's REST API cannot run makehosts -d)",
    );
    expect(output).toContain("xcat:Node a01: name services: makedns -d, makedhcp -d");
  });
});
