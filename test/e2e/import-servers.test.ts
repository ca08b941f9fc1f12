/**
 * `pulumi-xcat import` of several servers in one run (issue #36 item 3, support matrix N4),
 * through the real engine: two xCAT management nodes whose names overlap (the groups compute and
 * rack01, the nodes r01n01-r01n04, the site's domain; login01 with a BMC password on both
 * mnB and Confluent) and a Confluent server. One import per language reads all three; each
 * writes one program with a provider (YAML) or connection (TypeScript) per server. The
 * TypeScript import takes `--grain set` (issue #38 item 5: the messy cluster of
 * support/messy-cluster.ts on mn1 as NodeSets, its CSVs in inventory/mn1/), the YAML one
 * its default, set, for every server (Confluent's racks too, in inventory/confluent/). One stack
 * per language: its first `up` sends no
 * write to any of the three servers (counted per server at each emulator), and the next
 * `pulumi preview --expect-no-changes` passes.
 *
 * No node is powered, booted or deployed here: the import and its first up only read.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pulumi YAML expressions are written as text here.
import { execFile } from "node:child_process";
import { existsSync, symlinkSync, writeFileSync } from "node:fs";
import { mkdtemp, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { XcatClient } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { type RunningEmulator, startEmulator } from "../../src/emulator";
import { MESSY, seedMessyCluster } from "./support/messy-cluster";
import { PulumiWorkspace } from "./support/pulumi-workspace";

const PASSWORDS = { mn1: "servers-e2e-a", hall2: "servers-e2e-b", confluent: "servers-e2e-c" } as const;
/** BMC passwords the servers hold for login01: the program asks config for each, apart. */
const LOGIN_BMC = { hall2: "login01-bmc-on-hall2", confluent: "login01-bmc-on-confluent" } as const;
/** The racks:2x4 seed's BMC password on Confluent's compute group (src/confluent-emulator/seed-cluster.ts). */
const CONFLUENT_RACK_BMC = "rack-bmc-secret";

let mn1: RunningEmulator;
let hall2: RunningEmulator;
let confluent: RunningConfluentEmulator;
let sandbox: string;
const output: Record<string, string> = {};
const workspaces: PulumiWorkspace[] = [];

/** Requests that could change an xCAT (a token's POST only logs in). */
function xcatWrites(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

/** Confluent's writes: every write is a PUT, POST or DELETE. */
const confluentWrites = () => confluent.state.requests().filter((request) => request.method !== "GET").length;

/** The writes each of the three servers has received so far. */
const writesPerServer = () => ({
  mn1: xcatWrites(mn1),
  hall2: xcatWrites(hall2),
  confluent: confluentWrites(),
});

/** Runs the import of all three servers into `out`, keeping what it says on stderr. */
async function importAll(
  out: string,
  language: "yaml" | "typescript",
  extra: readonly string[],
): Promise<void> {
  const file = (name: string, text: string) => {
    const path = join(sandbox, `import-servers-${name}.pw`);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  let said = "";
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    said += String(chunk);
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  try {
    const code = await importCluster([
      ...["--out", out, "--language", language, "--username", "root", ...extra],
      ...["--url", mn1.url, "--password-file", file("mn1", PASSWORDS.mn1)],
      ...["--url", hall2.url, "--name", "hall2", "--password-file", file("hall2", PASSWORDS.hall2)],
      ...[
        "--url",
        confluent.url,
        "--backend",
        "confluent",
        "--password-file",
        file("cf", PASSWORDS.confluent),
      ],
    ]);
    expect(code).toBe(0);
  } finally {
    process.stderr.write = write;
  }
  output[language] = said;
}

/** The stack's config: each server's account in its own keys, and the secrets the program asks for. */
async function configure(workspace: PulumiWorkspace): Promise<void> {
  await workspace.setConfigs(
    {
      "mn1-url": mn1.url,
      "mn1-username": "root",
      "hall2-url": hall2.url,
      "hall2-username": "root",
      "confluent-url": confluent.url,
      "confluent-username": "root",
      "confluent-compute-bmcusername": "ADMIN",
    },
    {
      "mn1-password": PASSWORDS.mn1,
      "hall2-password": PASSWORDS.hall2,
      "confluent-password": PASSWORDS.confluent,
      "hall2-login01-bmcpassword": LOGIN_BMC.hall2,
      "confluent-login01-bmcpassword": LOGIN_BMC.confluent,
      "confluent-compute-bmcpassword": CONFLUENT_RACK_BMC,
    },
  );
}

/** PATH without any folder holding a pulumi-resource-xcat: the YAML program finds its plugin by path. */
const pathWithoutPlugin = () =>
  (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => dir !== "" && !existsSync(join(dir, "pulumi-resource-xcat")))
    .join(":");

/** Every file an import wrote, by path relative to `out`. */
async function filesOf(out: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(out, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(out.length + 1)] = await readFile(path, "utf8");
  }
  return files;
}

let yamlOut: string;
let typescriptOut: string;

beforeAll(async () => {
  sandbox = inject("e2eSandbox");
  [mn1, hall2, confluent] = await Promise.all([
    startEmulator({ password: PASSWORDS.mn1 }),
    startEmulator({ password: PASSWORDS.hall2 }),
    startConfluentEmulator({ password: PASSWORDS.confluent, seedCluster: "racks:2x4" }),
  ]);
  const a = new XcatClient({ url: mn1.url, username: "root", password: PASSWORDS.mn1 });
  await seedMessyCluster(a);
  await a.close();
  // A second hall: names that mn1 (and Confluent's seed) have too, with other values.
  const b = new XcatClient({ url: hall2.url, username: "root", password: PASSWORDS.hall2 });
  await b.globalconf.setAttrs({ domain: "hall2.example.org" });
  await b.groups.update("compute", { mgt: "ipmi", netboot: "xnba" });
  await b.groups.update("rack01", { mgt: "ipmi", rack: "1" });
  for (let n = 1; n <= 4; n++)
    await b.nodes.create(`r01n0${n}`, {
      groups: "compute,rack01,all",
      ip: `10.2.1.${n}`,
      mac: `52:54:00:09:00:0${n}`,
    });
  await b.nodes.create("login01", { groups: "compute,all", ip: "10.2.9.1", bmcpassword: LOGIN_BMC.hall2 });
  await b.close();
  const c = new ConfluentClient({ url: confluent.url, username: "root", password: PASSWORDS.confluent });
  await c.nodes.create("login01", {
    groups: ["compute"],
    "secret.hardwaremanagementpassword": LOGIN_BMC.confluent,
    "net.ipv4_address": "10.3.9.1",
  });
  await c.close();

  yamlOut = await mkdtemp(join(sandbox, "import-servers-yaml-"));
  typescriptOut = await mkdtemp(join(sandbox, "import-servers-ts-"));
  await importAll(yamlOut, "yaml", []);
  await importAll(typescriptOut, "typescript", ["--grain", "set"]);
});

afterAll(async () => {
  for (const workspace of workspaces) await workspace.dispose();
  await Promise.all([mn1?.close(), hall2?.close(), confluent?.close()]);
});

describe("pulumi-xcat import of two xCAT management nodes and a Confluent server in one run", () => {
  it("writes a provider per server, every resource through its server's, shared names suffixed, no secret in any file", async () => {
    const yaml = await filesOf(yamlOut);
    const program = yaml["Pulumi.yaml"] ?? "";
    // One explicit provider per server, its account from config keys of its own.
    expect(program).toContain(
      "  mn1:\n    type: pulumi:providers:xcat\n    properties:\n      url: ${mn1-url}\n      username: ${mn1-username}\n      password:\n        fn::secret: ${mn1-password}\n",
    );
    expect(program).toContain("  hall2:\n    type: pulumi:providers:xcat\n");
    expect(program).toContain(
      "  confluent:\n    type: pulumi:providers:xcat\n    properties:\n      backend: confluent\n",
    );
    // Every resource but the providers names the provider of its server.
    const blocks = program
      .split(/\n(?= {2}\S)/)
      .filter((block) => /^ {2}\S+:\n {4}type: xcat:index:/.test(block));
    expect(blocks.length).toBeGreaterThan(20);
    for (const block of blocks)
      expect(block).toMatch(/options: \{ protect: true, provider: "\$\{(mn1|hall2|confluent)\}" \}/);
    // A name two servers share: the resource name gets the server, the object keeps its name.
    expect(program).toContain(
      "  compute-hall2:\n    type: xcat:index:Group\n    properties: { name: compute, attributes: { mgt: ipmi, netboot: xnba }",
    );
    expect(program).toMatch(/ {2}compute-mn1:\n {4}type: xcat:index:Group\n/);
    expect(program).toMatch(/ {2}compute-confluent:\n {4}type: xcat:index:Group\n/);
    expect(program).toMatch(
      / {2}login01-hall2:\n {4}type: xcat:index:Node\n {4}properties:\n {6}name: login01\n/,
    );
    // mn1's r02n03 is a Node (outside its rack's groups); Confluent's r02n03 and the r01n01 of all
    // three are rows of NodeSets, so it shares its resource name with nothing.
    expect(program).toMatch(/ {2}r02n03:\n {4}type: xcat:index:Node\n/);
    expect(program).not.toMatch(/ {2}r01n01(-\w+)?:\n/);
    expect(program).toContain("  site-domain-mn1:\n");
    expect(program).toContain("  site-domain-hall2:\n");
    // The same node's BMC password on two servers: two config keys, each a secret.
    expect(program).toContain("fn::secret: ${hall2-login01-bmcpassword}");
    expect(program).toContain("fn::secret: ${confluent-login01-bmcpassword}");
    // NodeSets per server, a set never spanning servers, their CSVs apart.
    expect(
      Object.keys(yaml)
        .filter((path) => path.startsWith("inventory/"))
        .sort(),
    ).toEqual([
      "inventory/confluent/rack01.csv",
      "inventory/confluent/rack02.csv",
      "inventory/hall2/rack01.csv",
      "inventory/mn1/rack01.csv",
      "inventory/mn1/rack02.csv",
    ]);
    expect(program).toMatch(/ {2}rack01-nodes-mn1:\n {4}type: xcat:index:NodeSet\n/);
    expect(program).toMatch(/ {2}rack01-nodes-hall2:\n {4}type: xcat:index:NodeSet\n/);
    const confluentSets = blocks.filter(
      (text) => text.includes('provider: "${confluent}"') && text.includes("type: xcat:index:NodeSet"),
    );
    expect(confluentSets.map((text) => text.split(":")[0]?.trim())).toEqual([
      "rack01-nodes-confluent",
      "rack02-nodes-confluent",
    ]);
    expect(yaml["inventory/confluent/rack02.csv"]).toMatch(/^node,bmc,mac,unit\nr02n01,/);
    for (const text of Object.values(yaml)) {
      for (const secret of [...Object.values(PASSWORDS), ...Object.values(LOGIN_BMC), CONFLUENT_RACK_BMC])
        expect(text).not.toContain(secret);
    }

    const typescript = await filesOf(typescriptOut);
    const index = typescript["index.ts"] ?? "";
    expect(index).toContain(
      'const hall2: xcat.ConnectionArgs = {\n  url: config.require("hall2-url"),\n  username: config.require("hall2-username"),\n  password: config.requireSecret("hall2-password"),\n};',
    );
    expect(index).toContain('  backend: "confluent",\n};');
    // Every resource statement carries the connection of its server.
    const statements = index.split(/\n(?=new xcat\.|const \w+ = new xcat\.|for \(const run)/).slice(1);
    expect(statements.length).toBeGreaterThan(20);
    for (const statement of statements) expect(statement).toMatch(/connection: (mn1|hall2|confluent)\b/);
    expect(index).toContain('readFileSync("inventory/mn1/rack01.csv", "utf8")');
    expect(index).toMatch(/new xcat\.Group\(\s*"compute-hall2",\s*\{ name: "compute",/);
    // Confluent's racks are NodeSets too, their shared names suffixed.
    expect(index).toMatch(/new xcat\.NodeSet\(\s*"rack02-nodes-confluent",/);
    expect(index).toContain('readFileSync("inventory/confluent/rack02.csv", "utf8")');
    expect(typescript["Pulumi.yaml"]).not.toContain("xcat:backend");
    for (const text of Object.values(typescript)) {
      for (const secret of [...Object.values(PASSWORDS), ...Object.values(LOGIN_BMC), CONFLUENT_RACK_BMC])
        expect(text).not.toContain(secret);
    }
  });

  it("says which server each provider and each inventory folder comes from", async () => {
    const yaml = output.yaml ?? "";
    expect(yaml).toContain(
      `pulumi-xcat import: mn1: ${mn1.url} (xcat), provider mn1, 2 NodeSets with their CSVs in inventory/mn1/`,
    );
    expect(yaml).toContain(
      `pulumi-xcat import: hall2: ${hall2.url} (xcat), provider hall2, 1 NodeSets with their CSVs in inventory/hall2/`,
    );
    expect(yaml).toContain(
      `pulumi-xcat import: confluent: ${confluent.url} (confluent), provider confluent, 2 NodeSets with their CSVs in inventory/confluent/\n`,
    );
    expect(yaml).toMatch(
      /names on more than one server, each given -<server> in its resource name: [^\n]*\bcompute\b[^\n]*\blogin01\b/,
    );
    expect(output.typescript).toContain(`pulumi-xcat import: hall2: ${hall2.url} (xcat), connection hall2`);
    const readme = await readFile(join(yamlOut, "README.md"), "utf8");
    expect(readme).toContain(`## hall2: xCAT at ${hall2.url}`);
    expect(readme).toContain(`    pulumi config set --secret hall2-password "$HALL2_PASSWORD"`);
    expect(readme).toContain("    pulumi config set --secret confluent-login01-bmcpassword");
  });

  it("YAML with a NodeSet per rack: the first up sends no write to any of the three servers, the next preview has no changes", async () => {
    const workspace = await PulumiWorkspace.create({
      programDir: yamlOut,
      sandboxDir: sandbox,
      env: { PATH: pathWithoutPlugin() },
    });
    workspaces.push(workspace);
    symlinkSync(join(sandbox, "node_modules"), join(workspace.programDir, "node_modules"), "dir");
    await configure(workspace);
    const before = writesPerServer();
    const snapshots = [mn1.state.snapshot(), hall2.state.snapshot()];
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(writesPerServer()).toEqual(before);
    expect([mn1.state.snapshot(), hall2.state.snapshot()]).toEqual(snapshots);
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(writesPerServer()).toEqual(before);
    // Each node under its own server's provider in the state.
    const { text } = await workspace.exportState();
    for (const secret of [...Object.values(PASSWORDS), ...Object.values(LOGIN_BMC)])
      expect(text).not.toContain(secret);
  });

  it("TypeScript with --grain set (the messy cluster as NodeSets): the first up sends no write to any of the three, the next preview has no changes", async () => {
    const index = await readFile(join(typescriptOut, "index.ts"), "utf8");
    // mn1's racks are NodeSets, the node outside its rack's groups a Node of its own (Confluent's
    // node of that name is a row of its rack's set, so the name needs no suffix).
    expect(index).toMatch(/new xcat\.NodeSet\(\s*"rack01-nodes-mn1",/);
    expect(index).toMatch(/new xcat\.NodeSet\(\s*"rack02-nodes-mn1",/);
    expect(index).toMatch(new RegExp(`new xcat\\.Node\\(\\s*"${MESSY.undefinedGroup.node}",`));
    const workspace = await PulumiWorkspace.create({ programDir: typescriptOut, sandboxDir: sandbox });
    workspaces.push(workspace);
    // The engine runs it transpile-only; a user's `pulumi up` type-checks it: one declaration of
    // each loop helper across the servers, ConnectionArgs as the package exports it.
    const tsc = join(sandbox, "node_modules", "typescript", "bin", "tsc");
    await promisify(execFile)(process.execPath, [
      tsc,
      "-p",
      join(workspace.programDir, "tsconfig.json"),
      "--noEmit",
    ]);
    await configure(workspace);
    const before = writesPerServer();
    const snapshots = [mn1.state.snapshot(), hall2.state.snapshot()];
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(writesPerServer()).toEqual(before);
    expect([mn1.state.snapshot(), hall2.state.snapshot()]).toEqual(snapshots);
    const preview = await workspace.preview(["--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(writesPerServer()).toEqual(before);
    const { text } = await workspace.exportState();
    for (const secret of [...Object.values(PASSWORDS), ...Object.values(LOGIN_BMC)])
      expect(text).not.toContain(secret);
  });
});
