/**
 * `pulumi-xcat import --backend confluent` through the real engine (issue #36 item 9): a Confluent
 * emulator holding racks of nodes (BMC credentials and an address expression on `compute`, the
 * rack on each rack group) plus a hand-made login node with values and a secret of its own, read
 * into TypeScript (a Node per node, and with `--grain set` a NodeSet per rack) and into YAML for
 * the native provider (a NodeSet per rack, YAML's default; issue #38 item 5). Each program's
 * Pulumi.yaml sets
 * `xcat:backend confluent` itself (the test never does), holds no secret, and its first `up`
 * sends not one write request to Confluent (counted at the emulator); the next
 * `preview --refresh --expect-no-changes` passes.
 *
 * With CONFLUENT_E2E_URL, CONFLUENT_E2E_USERNAME and CONFLUENT_E2E_PASSWORD it runs against a real
 * Confluent 3.15 instead (docs/confluent.md): the same cluster is written there through the API,
 * the server must hold nothing else (the import reads everything), writes are counted by a
 * recording proxy in front of it, and every node and group is deleted afterwards.
 */
import { existsSync, readFileSync, symlinkSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { realConfluent } from "../client/support/confluent-target";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import { type RecordingProxy, startRecordingProxy } from "./support/recording-proxy";

const REAL = realConfluent();
const REAL_URL = REAL?.url;
const USERNAME = REAL?.username ?? "root";
const PASSWORD = REAL?.password ?? "confluent-import-e2e";
/** The seed's group secrets (src/confluent-emulator/seed-cluster.ts) and the login node's own. */
const SECRETS: Record<string, string> = {
  "compute-bmcpassword": "rack-bmc-secret",
  "login01-bmcpassword": "login-only-secret",
};
/** Not a password, but Confluent keeps it as secret.hardwaremanagementuser: asked as plain config. */
const BMC_USER = { key: "compute-bmcusername", value: "ADMIN" };

/** The server the import and the engine talk to, and its request log. */
let confluent: {
  readonly url: string;
  requests(): { readonly method: string; readonly path: string }[];
  close(): Promise<void>;
};
const workspaces: PulumiWorkspace[] = [];

/** Requests that could change Confluent (every write is a PUT, POST or DELETE). */
const writes = () => confluent.requests().filter((r) => r.method !== "GET");

const two = (n: number) => String(n).padStart(2, "0");
const hex = (n: number) => n.toString(16).padStart(2, "0");
/** Set once the real server was found empty: only then does afterAll delete the suite's names. */
let seededReal = false;
const RACKS = 2;
const PER_RACK = 4;
const computeNodes = Array.from({ length: RACKS * PER_RACK }, (_, i) => {
  const r = Math.floor(i / PER_RACK) + 1;
  const n = (i % PER_RACK) + 1;
  return { name: `r${two(r)}n${two(n)}`, r, n };
});

/**
 * On a real Confluent, the emulator's `racks:2x4` seed (src/confluent-emulator/seed-cluster.ts)
 * written through the API. A string with braces is stored as an expression (Confluent's
 * messages.py InputConfigChangeSet turns every string value into `{"expression": ...}`).
 */
async function seedRealCluster(admin: ConfluentClient): Promise<void> {
  const present = await admin.nodes.list("everything").catch(() => []);
  const groups = (await admin.groups.list()).filter((g) => g !== "everything");
  if (present.length > 0 || groups.length > 0) {
    throw new Error(
      `CONFLUENT_E2E_URL (${REAL_URL}) already holds nodes [${present.join(",")}] or groups [${groups.join(",")}]; ` +
        "this suite imports the whole server and needs an empty one",
    );
  }
  seededReal = true;
  await admin.groups.create("compute", {
    "hardwaremanagement.method": "ipmi",
    "console.method": "ipmi",
    "secret.hardwaremanagementuser": BMC_USER.value,
    "secret.hardwaremanagementpassword": SECRETS["compute-bmcpassword"] ?? "",
    "net.ipv4_address": "10.0.{n1}.{n2}",
  });
  for (let r = 1; r <= RACKS; r++) await admin.groups.create(`rack${two(r)}`, { "location.rack": String(r) });
  for (const { name, r, n } of computeNodes) {
    await admin.nodes.create(name, {
      groups: ["compute", `rack${two(r)}`],
      "hardwaremanagement.manager": `10.1.${r}.${n}`,
      "net.hwaddr": `52:54:00:${hex(r)}:00:${hex(n)}`,
      "location.u": String(n),
    });
  }
}

/** Removes what seedRealCluster and beforeAll made on a real Confluent (the stacks only adopted them). */
async function cleanRealCluster(admin: ConfluentClient): Promise<void> {
  for (const name of [...computeNodes.map((n) => n.name), "login01"])
    await admin.nodes.delete(name).catch(() => {});
  for (const group of ["compute", "rack01", "rack02", "login"])
    await admin.groups.delete(group).catch(() => {});
}

/** PATH without any folder holding a pulumi-resource-xcat (the checkout's node_modules/.bin). */
const pathWithoutPlugin = () =>
  (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => dir !== "" && !existsSync(join(dir, "pulumi-resource-xcat")))
    .join(":");

async function importInto(language: "typescript" | "yaml", extra: readonly string[] = []): Promise<string> {
  const out = await mkdtemp(join(inject("e2eSandbox"), `confluent-import-${language}-`));
  process.env.XCAT_PASSWORD = PASSWORD;
  try {
    const argv = ["--backend", "confluent", "--url", confluent.url, "--username", USERNAME, "--out", out];
    expect(await importCluster([...argv, "--language", language, ...extra])).toBe(0);
  } finally {
    delete process.env.XCAT_PASSWORD;
  }
  return out;
}

/** Stack config as the generated README's first-run lines set it: no xcat:backend among them. */
async function configure(workspace: PulumiWorkspace): Promise<void> {
  await workspace.run([
    "config",
    "set-all",
    ...["--plaintext", `xcat:url=${confluent.url}`, "--plaintext", `xcat:username=${USERNAME}`],
    ...["--secret", `xcat:password=${PASSWORD}`],
    ...Object.entries(SECRETS).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
    ...["--plaintext", `${BMC_USER.key}=${BMC_USER.value}`],
  ]);
}

beforeAll(async () => {
  if (REAL_URL) {
    const proxy: RecordingProxy = await startRecordingProxy(REAL_URL);
    confluent = proxy;
  } else {
    const emulator: RunningConfluentEmulator = await startConfluentEmulator({
      password: PASSWORD,
      seedCluster: "racks:2x4",
    });
    confluent = {
      url: emulator.url,
      requests: () => emulator.state.requests(),
      close: () => emulator.close(),
    };
  }
  // Seeding goes straight to the server, not through the proxy: only the engine's requests count.
  const admin = new ConfluentClient({
    url: REAL_URL ?? confluent.url,
    username: USERNAME,
    password: PASSWORD,
  });
  if (REAL_URL) await seedRealCluster(admin);
  await admin.groups.create("login", {
    "hardwaremanagement.method": "ipmi",
    "net.ipv4_gateway": "10.0.0.254",
  });
  await admin.nodes.create("login01", {
    groups: ["login"],
    "hardwaremanagement.manager": "10.1.9.1",
    "secret.hardwaremanagementpassword": SECRETS["login01-bmcpassword"] ?? "",
    "net.ipv4_address": "10.0.9.1",
    "info.note": "the login node",
  });
  await admin.close();
});

afterAll(async () => {
  for (const workspace of workspaces) await workspace.dispose();
  if (REAL_URL && seededReal) {
    const admin = new ConfluentClient({ url: REAL_URL, username: USERNAME, password: PASSWORD });
    await cleanRealCluster(admin);
    await admin.close();
  }
  await confluent?.close();
});

describe("pulumi-xcat import of a Confluent server", () => {
  it("TypeScript: own values only, no secret in the files, backend from Pulumi.yaml, a first up without a write", async () => {
    const out = await importInto("typescript");
    const program = readFileSync(join(out, "index.ts"), "utf8");
    const project = readFileSync(join(out, "Pulumi.yaml"), "utf8");
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(project).toContain("config:\n  xcat:backend:\n    value: confluent\n");
    for (const text of [program, project, readme]) {
      for (const secret of [...Object.values(SECRETS), PASSWORD]) expect(text).not.toContain(secret);
    }
    // The group's expression as the xCAT regex that translates back to it; the rack on the rack groups.
    expect(program).toContain('ip: "|^\\\\D*(\\\\d+)\\\\D+(\\\\d+)|10.0.($1+0).($2+0)|"');
    expect(program).toContain('config.requireSecret("compute-bmcpassword")');
    expect(program).toContain('config.requireSecret("login01-bmcpassword")');
    expect(program).toContain('config.require("compute-bmcusername")');
    expect(program).not.toContain(BMC_USER.value);
    expect(program).toContain('rack: "2"');
    expect(program).toContain("for (const run of computeRuns)");
    // Nodes carry no inherited value: neither mgt nor cons, which come from compute.
    expect(program.match(/mgt: "ipmi"/g)).toHaveLength(2); // on the groups compute and login only
    expect(program.match(/cons: "ipmi"/g)).toHaveLength(1);
    expect(program).toMatch(/new xcat\.Node\(\s*"login01",[^;]*usercomment: "the login node"/s);
    // What the program cannot name is said, not dropped silently.
    expect(readme).toContain("group 'login': net.ipv4_gateway");
    expect(readme).toContain("pulumi config set --secret compute-bmcpassword");
    expect(readme).toContain("pulumi config set compute-bmcusername");

    const workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    workspaces.push(workspace);
    await configure(workspace);
    const before = writes().length;
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(changes.create).toBe(1 + 4 + 9); // the stack; compute, rack01, rack02, login; 9 nodes
    expect(writes().slice(before)).toEqual([]);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(writes().slice(before)).toEqual([]);
    const { text } = await workspace.exportState();
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it("YAML for the native provider: a NodeSet per rack from CSV, the same, a first up without a write", async () => {
    const out = await importInto("yaml");
    const program = readFileSync(join(out, "Pulumi.yaml"), "utf8");
    expect(program).toContain("runtime: yaml");
    expect(program).toContain("  xcat:backend:\n    value: confluent\n");
    for (const secret of [...Object.values(SECRETS), PASSWORD]) expect(program).not.toContain(secret);
    expect(program).toContain(`fn::secret: \${compute-bmcpassword}`);
    // Each rack a NodeSet, its nodes' own values (BMC, MAC, unit) in its CSV; the login node, whose
    // BMC password of its own comes from config, a Node.
    expect(program.match(/type: xcat:index:NodeSet/g)).toHaveLength(RACKS);
    expect(program).toContain('csv: { "fn::readFile": ./inventory/rack02.csv }');
    expect(program).toMatch(/ {2}login01:\n {4}type: xcat:index:Node\n/);
    expect(readFileSync(join(out, "inventory", "rack02.csv"), "utf8")).toBe(
      "node,bmc,mac,unit\n" +
        computeNodes
          .filter(({ r }) => r === 2)
          .map(({ name, r, n }) => `${name},10.1.${r}.${n},52:54:00:${hex(r)}:00:${hex(n)},${n}\n`)
          .join(""),
    );

    const sandbox = inject("e2eSandbox");
    const workspace = await PulumiWorkspace.create({
      programDir: out,
      sandboxDir: sandbox,
      env: { PATH: pathWithoutPlugin() },
    });
    workspaces.push(workspace);
    // The plugin as a user's project finds it: the generated Pulumi.yaml names the installed
    // package's plugin folder (docs/native-provider.md).
    expect(program).toContain("      path: node_modules/pulumi-xcat/plugin\n");
    symlinkSync(join(sandbox, "node_modules"), join(workspace.programDir, "node_modules"), "dir");
    await configure(workspace);
    const before = writes().length;
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(writes().slice(before)).toEqual([]);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(writes().slice(before)).toEqual([]);
    const { text } = await workspace.exportState();
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
  });

  it("TypeScript with --grain set: a NodeSet per rack, a first up without a write, no change after", async () => {
    const out = await importInto("typescript", ["--grain", "set"]);
    const program = readFileSync(join(out, "index.ts"), "utf8");
    expect(program.match(/new xcat\.NodeSet\(/g)).toHaveLength(RACKS);
    expect(program).toContain('readFileSync("inventory/rack01.csv", "utf8")');
    expect(program).toMatch(/new xcat\.Node\(\s*"login01",/);
    for (const secret of [...Object.values(SECRETS), PASSWORD]) expect(program).not.toContain(secret);

    const workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    workspaces.push(workspace);
    await configure(workspace);
    const before = writes().length;
    const changes = await workspace.up();
    expect(changes.create).toBe(1 + 4 + RACKS + 1); // the stack; 4 groups; a set per rack; login01
    expect(writes().slice(before)).toEqual([]);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    expect(writes().slice(before)).toEqual([]);
  });
});
