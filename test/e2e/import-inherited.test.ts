/**
 * Import of a cluster whose groups carry postscripts and whose nodes were deployed (issue #36
 * item 5), through the real engine. lsdef shows every node's scripts with the xcatdefaults ones in
 * front (`syslog,remoteshell,syncfiles,…`, xcat-behavior.md §5.2) and its group's after them, and
 * after `nodeset osimage=` the image's os/arch/profile on the node (destiny.pm:294-319) and a
 * boot state. The program written declares none of those on a node: the defaults stay xCAT's, the
 * scripts the group's, os/arch/profile follow provmethod. The first `up` writes nothing and
 * `preview --refresh --expect-no-changes` passes; a node copied in the program to a new name
 * (the block of an imported node, renamed) gets its scripts once, not the defaults twice, and
 * converges in one `up`.
 *
 * With XCAT_E2E_URL set it runs on that management node (docs/real-xcat-e2e.md): every object is
 * named with the run's prefix, the import reads only the suite's nodes (`--noderange`), "nothing
 * written" is every object table read before and after, and everything made is removed afterwards.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import type { RunningEmulator } from "../../src/emulator";
import { PulumiWorkspace } from "./support/pulumi-workspace";
import { type E2eTarget, objectTablesSnapshot, startTarget, tlsArgs } from "./support/target";

const XCAT_PASSWORD = "inherited-e2e";
/** A fresh management node's xcatdefaults row (src/contract/fresh-management-node.ts). */
const DEFAULTS = "syslog,remoteshell,syncfiles";

function writes(emulator: RunningEmulator): Record<string, number> {
  return Object.fromEntries(
    Object.entries(emulator.stats().byRoute).filter(
      ([route]) => /^(POST|PUT|DELETE|PATCH) /.test(route) && route !== "POST /tokens",
    ),
  );
}

/**
 * What shows that nothing was written: the emulator's write counts by route, or on a real node
 * (whose requests the test cannot count) every object table's rows.
 */
async function writeWitness(target: E2eTarget): Promise<unknown> {
  return target.emulator ? writes(target.emulator) : await objectTablesSnapshot(target.admin);
}

describe("pulumi-xcat import of inherited scripts and deployed nodes", () => {
  let target: E2eTarget;
  let p: string;
  let IMAGE: string;
  let out: string;
  let workspace: PulumiWorkspace;
  let program: string;

  beforeAll(async () => {
    target = await startTarget({ password: XCAT_PASSWORD });
    p = target.prefix;
    IMAGE = `${p}rocky9.4-x86_64-netboot-compute`;
    const admin = target.admin;
    await admin.osimages.create(IMAGE, {
      imagetype: "linux",
      provmethod: "netboot",
      profile: "compute",
      osvers: "rocky9.4",
      osarch: "x86_64",
      osname: "Linux",
    });
    await admin.groups.update(`${p}compute`, {
      mgt: "ipmi",
      netboot: "xnba",
      postscripts: "confignetwork,setupntp",
    });
    await admin.groups.update(`${p}login`, { mgt: "ipmi", postscripts: "confignetwork" });
    for (let n = 1; n <= 4; n++) {
      await admin.nodes.create(`${p}cn0${n}`, {
        groups: `${p}compute,all`,
        ip: `10.0.0.${n}`,
        mac: `52:54:00:00:00:0${n}`,
      });
    }
    // The login node's own scripts replace its group's (a node's own row wins).
    await admin.nodes.create(`${p}login01`, {
      groups: `${p}login,all`,
      ip: "10.0.9.1",
      postscripts: "loginsetup",
    });
    // What a Deployment sends: nodeset points the nodes at the image.
    await admin.nodes.setBootstate(`${p}cn01,${p}cn02,${p}cn03,${p}cn04`, { osimage: IMAGE });
    const cn01 = await admin.nodes.get(`${p}cn01`);
    expect(cn01).toMatchObject({
      postscripts: `${DEFAULTS},confignetwork,setupntp`,
      provmethod: IMAGE,
      os: "rocky9.4",
      arch: "x86_64",
      profile: "compute",
    });
    expect((await admin.nodes.get(`${p}login01`)).postscripts).toBe(`${DEFAULTS},loginsetup`);

    out = await mkdtemp(join(tmpdir(), "pulumi-xcat-import-inherited-"));
    process.env.XCAT_PASSWORD = target.password;
    try {
      const args = ["--url", target.url, "--username", target.username, "--out", out, ...tlsArgs(target)];
      if (!target.emulator) args.push("--noderange", `${p}cn01,${p}cn02,${p}cn03,${p}cn04,${p}login01`);
      expect(await importCluster(args)).toBe(0);
    } finally {
      delete process.env.XCAT_PASSWORD;
    }
    program = await readFile(join(out, "index.ts"), "utf8");
    workspace = await PulumiWorkspace.create({ programDir: out, sandboxDir: inject("e2eSandbox") });
    await target.configure(workspace);
  });

  afterAll(async () => {
    await workspace?.dispose();
    if (target && !target.emulator) await removeRealObjects(target);
    await target?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it("writes no node's inherited or default scripts, and no value nodeset derived from the image", () => {
    expect(program).not.toContain("syslog");
    expect(program).not.toContain("otherpkgs");
    // The group's scripts live on the group, once; the login node's own on it alone.
    expect(program.match(/confignetwork,setupntp/g)).toHaveLength(1);
    expect(program).toMatch(
      new RegExp(`new xcat\\.Node\\(\\s*"${p}login01",[^;]*postscripts: "loginsetup"`, "s"),
    );
    expect(program).toMatch(/provmethod: \w*(r|R)ocky94X8664NetbootCompute\.name/);
    // The image keeps its profile, osvers and osarch; the nodes name the image and no more.
    const starts = ["// Regular runs", "// Nodes that follow"].map((text) => program.indexOf(text));
    const nodes = program.slice(Math.min(...starts.filter((at) => at >= 0)));
    expect(nodes).toContain("new xcat.Node");
    expect(nodes).not.toMatch(/\b(os|arch|profile|currstate|status): "/);
  });

  it("the first up writes nothing and preview --refresh --expect-no-changes passes", async () => {
    const before = await writeWitness(target);
    const snapshot = target.emulator?.state.snapshot();
    const changes = await workspace.up();
    expect(Object.keys(changes)).toEqual(["create"]);
    expect(await writeWitness(target)).toEqual(before);
    expect(target.emulator?.state.snapshot()).toBe(snapshot);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });

  it("a node copied to a new name gets its scripts once and converges in one up", async () => {
    // The login01 block, as written, renamed: what an admin does to add a second login node.
    const block = new RegExp(`new xcat\\.Node\\(\\s*"${p}login01",[\\s\\S]*?\\);\\n`).exec(program)?.[0];
    expect(block).toBeDefined();
    const copy = (block ?? "").replace(`"${p}login01"`, `"${p}login02"`).replace("10.0.9.1", "10.0.9.2");
    await writeFile(join(workspace.programDir, "index.ts"), `${program}${copy}`);
    const changes = await workspace.up();
    expect(changes).toMatchObject({ create: 1 });
    expect((await target.admin.nodes.get(`${p}login02`)).postscripts).toBe(`${DEFAULTS},loginsetup`);
    const preview = await workspace.preview(["--refresh", "--expect-no-changes"]);
    expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
  });

  it("the snippet `pulumi import` prints for a node holds its own values only, and previews clean with --refresh", async () => {
    const sandbox = inject("e2eSandbox");
    const native = await PulumiWorkspace.create({
      programDir: resolve(import.meta.dirname, "programs/native-import"),
      sandboxDir: sandbox,
      // The packed package's bins first on PATH: the engine finds pulumi-resource-xcat there.
      env: { PATH: `${join(sandbox, "node_modules", ".bin")}:${process.env.PATH ?? ""}` },
    });
    try {
      await target.configure(native);
      const generated = join(native.programDir, "generated.yaml");
      const before = await writeWitness(target);
      await native.run(["import", "xcat:index:Node", `${p}cn02`, `${p}cn02`, "--yes", "--out", generated]);
      expect(await writeWitness(target)).toEqual(before);
      const code = await readFile(generated, "utf8");
      expect(code).toContain(`provmethod: ${IMAGE}`);
      expect(code).toContain("ip: 10.0.0.2");
      // Not the defaults, not the group's scripts or mgt, not what nodeset derived, not its state.
      expect(code).not.toMatch(
        /^\s+(postscripts|postbootscripts|mgt|netboot|os|arch|profile|currstate|status):/m,
      );
      const project = join(native.programDir, "Pulumi.yaml");
      await writeFile(project, (await readFile(project, "utf8")).replace("resources: {}\n", code));
      const preview = await native.preview(["--refresh", "--expect-no-changes"]);
      expect(Object.keys(preview.changeSummary)).toEqual(["same"]);
    } finally {
      await native.dispose();
    }
  });
});

/** On a real node: the suite's nodes, its groups' rows and its image (the stacks only adopted them). */
async function removeRealObjects(target: E2eTarget): Promise<void> {
  const p = target.prefix;
  const nodes = [1, 2, 3, 4].map((n) => `${p}cn0${n}`).concat(`${p}login01`, `${p}login02`);
  const attempts = [
    ...nodes.map((node) => () => target.admin.nodes.delete(node)),
    // A static group's own values live in the node-keyed tables under the group's name.
    ...["nodehm", "noderes", "nodetype", "postscripts"].flatMap((table) =>
      [`${p}compute`, `${p}login`].map(
        (group) => () => target.admin.tables.deleteRows(table, { node: group }),
      ),
    ),
    // The groups' own rows: chdef -t group made a static nodegroup row for each (seen on a real
    // xCAT 2.19.0: left behind by the node-keyed deletes above).
    ...[`${p}compute`, `${p}login`].map(
      (group) => () => target.admin.tables.deleteRows("nodegroup", { groupname: group }),
    ),
    () => target.admin.osimages.delete(`${p}rocky9.4-x86_64-netboot-compute`),
  ];
  for (const attempt of attempts) await attempt().catch(() => {});
}
