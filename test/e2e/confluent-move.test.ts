/**
 * The move in one command pair (issue #24): the same program (test/e2e/programs/move-cluster: a
 * Group with mgt ipmi, bmcusername and bmcpassword, 20 Nodes with ip, mac and bmc, a PowerState and
 * a Deployment, and 4 spare nodes as one NodeSet from a CSV) goes up on confluent-emulator with
 * nothing changed but stack config; its nodes
 * read back over Confluent's own API under Confluent's attribute names; a second preview has no
 * changes; a hand edit through Confluent's API shows on refresh and up restores it; destroy leaves
 * no node or group; the BMC password appears nowhere in the state or the output. With
 * `postscripts` on the Group, preview fails on the Confluent stack naming it, and passes on the
 * xCAT stack. `pulumi-xcat view` on the same stack (no engine run of its own), loaded in headless
 * Chromium, draws a managed, an unmanaged and a powered-off node from Confluent's answers.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cannotMoveToConfluent } from "../../src/cli/review/cannot-move";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { ChromiumPage, chromiumForTests } from "../provider/chromium-page";
import { waitForState } from "../support/wait-for-state";
import { PulumiWorkspace } from "./support/pulumi-workspace";

/** What the view printed so far ("" before it created the file). */
function readLog(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

const PROGRAM = resolve(import.meta.dirname, "programs/move-cluster");
const BMC_PASSWORD = "mv-Bmc-Pw-7731";
const PROFILE = "rocky-9.4-x86_64-default";

describe("one program, moved from xCAT to Confluent by stack config", () => {
  let confluent: RunningConfluentEmulator;
  let admin: ConfluentClient;
  let workspace: PulumiWorkspace;
  /** The requests Confluent received (method and path) from index `from` on. */
  const received = (from: number) =>
    confluent.state
      .requests()
      .slice(from)
      .map(({ method, path }) => `${method} ${path.replace(/^\/confluent-api/, "")}`);
  /** What the NodeSet's steps below count: the requests of the first up and of the hand-edit up. */
  const counted = { firstUp: [] as string[], handEditUp: [] as string[], handEditOutput: "" };

  beforeAll(async () => {
    confluent = await startConfluentEmulator({ bootSeconds: 1, deploymentProfiles: [PROFILE] });
    admin = new ConfluentClient({ url: confluent.url, username: "root", password: "cluster" });
    // The connection comes from the environment (XCAT_URL, …; the same settings as xcat:url, …),
    // which keeps the e2e short; the backend and the program's own settings are stack config.
    workspace = await PulumiWorkspace.create({
      programDir: PROGRAM,
      sandboxDir: inject("e2eSandbox"),
      env: { XCAT_URL: confluent.url, XCAT_USERNAME: "root", XCAT_PASSWORD: "cluster" },
    });
    // One `config set-all` rather than a command per key: each pulumi command costs seconds.
    await workspace.run([
      "config",
      "set-all",
      "--plaintext",
      "xcat:backend=confluent",
      "--plaintext",
      `osimage=${PROFILE}`,
      "--secret",
      `bmcPassword=${BMC_PASSWORD}`,
    ]);
  });

  /** A preview of the same program, with postscripts, on a stack of its own whose backend is xCAT. */
  async function previewWithPostscriptsOnXcatStack() {
    const xcatStack = await PulumiWorkspace.create({
      programDir: PROGRAM,
      sandboxDir: inject("e2eSandbox"),
      stackName: "xcat",
      // A preview without a connection (xcat:checkConnection false): it checks the program, reads nothing.
      env: {
        XCAT_URL: "https://127.0.0.1:1/xcatws",
        XCAT_USERNAME: "root",
        XCAT_PASSWORD: "cluster",
        XCAT_CHECK_CONNECTION: "false",
      },
    });
    try {
      return await xcatStack.preview([
        "-c",
        `bmcPassword=${BMC_PASSWORD}`,
        "-c",
        "osimage=rocky9.4-x86_64-install-compute",
        "-c",
        "withPostscripts=true",
      ]);
    } finally {
      await xcatStack.dispose();
    }
  }

  afterAll(async () => {
    await workspace?.dispose();
    await admin?.close();
    await confluent?.close();
  });

  it("goes up on Confluent, and the nodes read back over Confluent's API with the mapped attributes", async () => {
    // The stack, the group, 20 nodes, the power state, the deployment and the NodeSet.
    const from = confluent.state.requests().length;
    expect(await workspace.up()).toEqual({ create: 25 });
    counted.firstUp = received(from);
    const node = await admin.nodes.get("mv07");
    expect(node.get("groups")?.value).toEqual(["mv-compute", "everything"]);
    expect(node.get("net.ipv4_address")?.value).toBe("10.20.0.7");
    expect(node.get("net.hwaddr")?.value).toBe("52:54:00:20:00:07");
    expect(node.get("hardwaremanagement.manager")?.value).toBe("127.0.10.107");
    expect(node.get("hardwaremanagement.method")).toMatchObject({
      inheritedfrom: "mv-compute",
      value: "ipmi",
    });
    expect(node.get("secret.hardwaremanagementpassword")).toMatchObject({ isset: true });
    expect(node.get("deployment.profile")?.value).toBe(PROFILE);
    expect(confluent.state.nodeNames().filter((name) => /^mv\d+$/.test(name))).toHaveLength(20);
    expect(confluent.state.nodeNames().filter((name) => name.startsWith("mvs"))).toEqual([
      "mvs01",
      "mvs02",
      "mvs03",
      "mvs04",
    ]);
  });

  it("a second preview has no changes", async () => {
    const preview = await workspace.preview();
    expect(preview.changeSummary).toEqual({ same: 25 });
  });

  it("a hand edit through Confluent's API shows on refresh, and up restores it", async () => {
    await admin.nodes.update("mv03", { "net.hwaddr": "52:54:00:20:99:99" });
    // The same up puts back a hand edit of one of the NodeSet's nodes (checked in the next step).
    await admin.nodes.update("mvs03", { "net.ipv4_address": "10.20.9.9" });
    // One command: `up --refresh` refreshes, then updates. The state still holds the program's
    // MAC, so without the refresh seeing the edit there would be nothing to update; the update
    // of one node is the edit shown by refresh, and the server's value afterwards is its undoing.
    const from = confluent.state.requests().length;
    expect(await workspace.up(["--refresh", "--diff"])).toEqual({ update: 2, same: 23 });
    counted.handEditUp = received(from);
    counted.handEditOutput =
      workspace.transcript.filter((command) => command.args[0] === "up").at(-1)?.stdout ?? "";
    expect((await admin.nodes.get("mv03")).get("net.hwaddr")?.value).toBe("52:54:00:20:00:03");
  });

  it("a NodeSet from CSV goes up on Confluent beside the Nodes; a hand edit of one node's ip shows on refresh as that node and up restores it with one PUT", async () => {
    // Created: each node with its own row (one POST each: its ip, mac and bmc are its own), in
    // its group, which Confluent needed before a node names it.
    const spare = await admin.nodes.get("mvs02");
    expect(spare.get("groups")?.value).toEqual(["mv-spare", "everything"]);
    expect(spare.get("net.ipv4_address")?.value).toBe("10.20.1.2");
    expect(spare.get("net.hwaddr")?.value).toBe("52:54:00:20:01:02");
    expect(spare.get("hardwaremanagement.manager")?.value).toBe("127.0.10.122");
    expect(spare.get("info.note")?.value).toBe("spare");
    expect(counted.firstUp.filter((r) => r === "POST /nodegroups/")).toHaveLength(2);
    // 20 Nodes and the set's 4 nodes, one POST each; nothing created as a range.
    expect(counted.firstUp.filter((r) => r === "POST /nodes/")).toHaveLength(24);
    expect(counted.firstUp.filter((r) => r === "POST /noderange/")).toEqual([]);
    // The hand edit: up --refresh --diff shows it as that node's ip, and one PUT of that node
    // alone puts it back; no other node of the set is written.
    expect(counted.handEditOutput).toMatch(/mvs03[\s\S]*ip[\s\S]*10\.20\.9\.9/);
    expect(
      counted.handEditUp.filter((r) => r.startsWith("PUT /noderange/mvs") || r.startsWith("PUT /nodes/mvs")),
    ).toEqual(["PUT /noderange/mvs03/attributes/current"]);
    expect((await admin.nodes.get("mvs03")).get("net.ipv4_address")?.value).toBe("10.20.1.3");
  });

  // pulumi-xcat view (issue #39) on this Confluent stack, from the packed CLI as a user runs it in a
  // second shell, in a real browser; the engine does not run for it.
  it("T142 view on the Confluent stack in headless Chromium: a managed, an unmanaged and a powered-off node, each in words", async ({
    signal,
  }) => {
    const chromium = await chromiumForTests();
    const dir = await mkdtemp(join(tmpdir(), "view-confluent-"));
    const log = join(dir, "view.log");
    const done = join(dir, "done");
    // By hand, outside the program: a node no resource holds (never powered: off), a managed node
    // switched off, and a managed node's MAC edited (drift).
    await admin.nodes.create("mvhand", {
      groups: ["mv-compute"],
      "hardwaremanagement.manager": "127.0.10.199",
    });
    await admin.nodes.setPower(["mv09"], "off");
    await admin.nodes.update("mv05", { "net.hwaddr": "52:54:00:20:55:55" });
    const script = [
      `PATH="$(npm prefix)/node_modules/.bin:$PATH" pulumi-xcat view 2>"${log}" & pid=$!`,
      `while [ ! -e "${done}" ] && kill -0 $pid 2>/dev/null; do sleep 0.5; done`,
      'kill -INT $pid; wait $pid; echo "exit=$?"',
    ].join("\n");
    const view = workspace.exec("bash", ["-c", script], { allowFailure: true });
    let page: ChromiumPage | undefined;
    try {
      let url = "";
      await waitForState(
        () => {
          url = /open (http:\/\/127\.0\.0\.1:\d+\/)/.exec(readLog(log))?.[1] ?? "";
          return url !== "";
        },
        "the view to print its address",
        { signal, until: { ended: view, what: "pulumi-xcat view" }, everyMs: 200 },
      );
      page = await ChromiumPage.open(chromium, url, 1500, 1000);
      const node = (name: string) => `document.querySelector('.node[data-node="${name}"]')`;
      const text = (name: string) =>
        page?.evaluate<string>(`${node(name)}?.querySelector("text")?.textContent ?? ""`);
      const state = (name: string) => page?.evaluate<string>(`${node(name)}?.getAttribute("data-state")`);
      await page.waitFor(`${node("mvhand")} && ${node("mv09")}`);
      // Managed and deployed: Confluent's deployment.profile, under code (no dashed mark).
      expect(await state("mv01")).toBe("booted");
      expect(await text("mv01")).toBe(`mv01 deployed ${PROFILE}`);
      // Not under code, and off (Confluent's power read).
      expect(await state("mvhand")).toBe("off");
      expect(await text("mvhand")).toBe("mvhand off · not under code");
      // Managed, switched off by hand.
      expect(await state("mv09")).toBe("off");
      expect(await text("mv09")).toBe("mv09 off");
      expect(await text("mv05")).toBe(`mv05 deployed ${PROFILE} · drift`);
      const legend = await page.evaluate<string>(
        `[...document.querySelectorAll(".legend")].map((e) => e.textContent).join("\\n")`,
      );
      expect(legend).toContain(
        "deployed: deployment.profile completed (Confluent has no status of the running OS) (19)",
      );
      // The panel: which server, Confluent's own attribute names, the secret never shown.
      await page.evaluate(`${node("mv05")}.dispatchEvent(new MouseEvent("click", { bubbles: true }))`);
      await page.waitFor(`document.getElementById("attributes")`);
      const panel = await page.evaluate<string>(`document.getElementById("detail").textContent`);
      expect(panel).toContain(`server: the stack's Confluent server (${confluent.url})`);
      expect(panel).toContain("Attributes (as Confluent gives them)");
      expect(panel).toContain("drift: changed since the stack last recorded it: mac");
      expect(panel).toMatch(/secret\.hardwaremanagementpassword\[secret\]from group mv-compute/);
      expect(panel).not.toContain(BMC_PASSWORD);
      const shots = process.env.PULUMI_XCAT_VIEW_SCREENSHOTS;
      if (shots) {
        await mkdir(shots, { recursive: true });
        await page.screenshot(join(shots, "view-confluent.png"));
      }
    } finally {
      await page?.close();
      await writeFile(done, "");
      const result = await view;
      await admin.nodes.delete("mvhand");
      await admin.nodes.update("mv05", { "net.hwaddr": "52:54:00:20:00:05" });
      expect(result.stdout.trim()).toBe("exit=0");
      const said = await readFile(log, "utf8");
      expect(said).toMatch(
        /pulumi-xcat view: stack \S+: open http:\/\/127\.0\.0\.1:\d+\/ \(reads the stack's Confluent server \(/,
      );
      expect(said).not.toContain(BMC_PASSWORD);
    }
  });

  it("the BMC password appears in no state, output or error", async () => {
    const { text } = await workspace.exportState();
    expect(text).not.toContain(BMC_PASSWORD);
    // Every command's output, but those the harness runs with --show-secrets to read counts and
    // outputs (they print the stack config, where the test itself put the password).
    const shown = workspace.transcript.filter((command) => !command.args.includes("--show-secrets"));
    expect(shown.length).toBeGreaterThan(5);
    for (const command of shown) expect(command.stdout + command.stderr).not.toContain(BMC_PASSWORD);
  });

  it("with postscripts on the Group, preview fails on the Confluent stack naming postscripts, and passes on an xCAT stack", async () => {
    // The two previews touch different stacks and servers, so they run side by side. On the
    // Confluent stack, -c sets it in the stack config too; destroy, next, does not run the program.
    const [failed, onXcat] = await Promise.all([
      workspace.run(["preview", "--json", "-c", "withPostscripts=true"], { allowFailure: true }),
      previewWithPostscriptsOnXcatStack(),
    ]);
    expect(failed.exitCode).not.toBe(0);
    expect(failed.stdout + failed.stderr).toMatch(
      /xcat:Group 'mv-compute': attribute 'postscripts' has no counterpart on Confluent/,
    );
    // pulumi-xcat review lists it from the same --json output.
    expect(cannotMoveToConfluent(JSON.parse(failed.stdout))).toEqual([
      expect.stringMatching(
        /^xcat:Group 'mv-compute': attribute 'postscripts' has no counterpart on Confluent/,
      ),
    ]);
    expect(onXcat.changeSummary).toEqual({ create: 25 });
  });

  it("destroy leaves no node and no group", async () => {
    const from = confluent.state.requests().length;
    expect(await workspace.destroy()).toEqual({ delete: 25 });
    // The NodeSet's 4 nodes go in one DELETE of their range.
    expect(
      received(from).filter((r) => r.startsWith("DELETE /noderange/") || r.startsWith("DELETE /nodes/mvs")),
    ).toEqual(["DELETE /noderange/mvs01,mvs02,mvs03,mvs04"]);
    expect(confluent.state.nodeNames()).toEqual([]);
    expect(confluent.state.groupNames().filter((name) => name !== "everything")).toEqual([]);
  });
});
