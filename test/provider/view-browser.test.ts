/**
 * `pulumi-xcat view` in a real browser: headless Chromium (Debian's chromium-headless-shell,
 * chromium-page.ts) loads the page the view serves while a Deployment rolls an image onto eight
 * nodes of an emulator that boots them in simulated time, one of them failing (failNodes), and a
 * ninth node no resource holds. The Nodes are created and the roll runs through the provider
 * runtime, as the engine calls it; the stack's state the view reads is built from those resources'
 * outputs, with the roll as the checkpoint shows a Deployment being created (a pending `creating`
 * operation, stack-nodes.ts). Screenshots go to PULUMI_XCAT_VIEW_SCREENSHOTS (docs/images for the
 * README), else a temporary directory.
 */
import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPng, svgSize } from "../../src/cli/view/chromium";
import { type RunningViewServer, serveView } from "../../src/cli/view/view-server";
import { ViewSource } from "../../src/cli/view/view-source";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD } from "../../src/emulator";
import { ChromiumPage, chromiumForTests } from "./chromium-page";
import { type ProviderHarness, providerHarness } from "./support";

const urn = (type: string, name: string) => `urn:pulumi:dev::lab::pulumi-nodejs:dynamic/${type}::${name}`;

/** The words drawn on a node (its <text>; its <title> holds the facts for a screen reader). */
const nodeText = (name: string) =>
  `document.querySelector('.node[data-node="${name}"] text')?.textContent ?? ""`;
const nodeState = (name: string) =>
  `document.querySelector('.node[data-node="${name}"]')?.getAttribute("data-state")`;

describe("view in headless Chromium during a roll", () => {
  let h: ProviderHarness;
  let client: XcatClient;
  let source: ViewSource;
  let server: RunningViewServer;
  let page: ChromiumPage;
  let roll: Promise<unknown>;
  let shots: string;
  const state: { deployment: { resources: unknown[]; pending_operations: unknown[] } } = {
    deployment: { resources: [], pending_operations: [] },
  };

  beforeAll(async () => {
    const chromium = await chromiumForTests();
    // renderPng finds it the way `pulumi-xcat view --snapshot x.png` does.
    process.env.PULUMI_XCAT_CHROMIUM ??= chromium;
    shots = process.env.PULUMI_XCAT_VIEW_SCREENSHOTS ?? (await mkdtemp(join(tmpdir(), "view-shots-")));
    await mkdir(shots, { recursive: true });
    h = await providerHarness({ bootSeconds: 6, failNodes: ["r01n04"] });
    await h.admin.osimages.create("rocky9-compute", {
      imagetype: "linux",
      provmethod: "netboot",
      osvers: "rocky9.4",
      osarch: "x86_64",
      profile: "compute",
    });
    await h.admin.globalconf.setAttrs({ dhcpsetup: "n" });
    await h.admin.groups.update("compute", {
      mgt: "ipmi",
      bmcusername: "ADMIN",
      bmcpassword: "rack-bmc-secret",
    });
    for (let i = 1; i <= 8; i++) {
      const name = `r01n0${i}`;
      const inputs = {
        name,
        groups: ["compute", "all"],
        attributes: {
          mgt: "ipmi",
          bmc: `127.0.10.${i}`,
          netboot: "xnba",
          mac: `02:00:00:00:01:0${i}`,
          ip: `10.9.0.${i}`,
        },
      };
      const checked = (await h.check("xcat:Node", inputs)).inputs as Record<string, unknown>;
      const { outs } = await h.createChecked("xcat:Node", inputs);
      state.deployment.resources.push({
        urn: urn("xcat:Node", name),
        type: "pulumi-nodejs:dynamic/xcat:Node",
        id: name,
        inputs: checked,
        outputs: outs,
      });
    }
    // Defined by hand, booted, held by no resource.
    await h.admin.nodes.create("r01n09", {
      groups: "compute,all",
      mgt: "ipmi",
      bmc: "127.0.10.9",
      status: "booted",
    });
    // A hand edit after the stack recorded r01n02.
    await h.admin.nodes.update("r01n02", { mac: "02:00:00:00:09:99" });

    const rollInputs = {
      nodes: "r01n[01-08]",
      osimage: "rocky9-compute",
      batchSize: 2,
      canary: 1,
      maxFailures: 8,
      pollSeconds: 0.5,
      timeoutMinutes: 3,
    };
    state.deployment.pending_operations.push({
      type: "creating",
      resource: {
        urn: urn("xcat:Deployment", "compute"),
        type: "pulumi-nodejs:dynamic/xcat:Deployment",
        inputs: (await h.check("xcat:Deployment", rollInputs)).inputs,
      },
    });
    roll = h.createChecked("xcat:Deployment", rollInputs).catch((error: unknown) => error);

    client = new XcatClient({ url: h.emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
    source = new ViewSource({
      stack: "dev",
      managementNode: `the stack's management node (${h.emulator.url})`,
      client,
      readState: async () => structuredClone(state),
      intervalMs: 5000,
    });
    source.start();
    server = await serveView(source, "127.0.0.1", 0);
    page = await ChromiumPage.open(chromium, server.url, 1500, 1000);
  }, 30 * 60_000);

  afterAll(async () => {
    await page?.close();
    await server?.close();
    await source?.stop();
    await roll;
    await client?.close();
    await h?.close();
  });

  it(
    "shows a booted, a deploying, a not-under-code and a drifted node mid-roll, in words",
    async () => {
      await page.waitFor(
        `${nodeState("r01n01")} === "booted" && document.querySelector('.node[data-state="deploying"]')`,
      );
      expect(await page.evaluate<string>(nodeText("r01n01"))).toContain("U01 r01n01 booted rocky9-compute");
      const deploying = await page.evaluate<string>(
        `document.querySelector('.node[data-state="deploying"] text').textContent`,
      );
      expect(deploying).toMatch(/r01n0[2-8] (powering-on|installing|netbooting|booting|postbooting)/);
      const waiting = await page.evaluate<string[]>(
        `[...document.querySelectorAll('.node[data-state="waiting"] text')].map((e) => e.textContent)`,
      );
      for (const text of waiting) expect(text).toMatch(/waiting for rocky9-compute/);
      expect(await page.evaluate<string>(nodeText("r01n09"))).toMatch(/r01n09 booted · not under code$/);
      expect(await page.evaluate<string>(nodeText("r01n02"))).toContain("· drift");
      const legend = await page.evaluate<string>(
        `[...document.querySelectorAll(".legend")].map((e) => e.textContent).join("\\n")`,
      );
      expect(legend).toMatch(/failed: xCAT status failed/);
      expect(legend).toMatch(/deploying: installing, netbooting, booting \(\d+\)/);
      await page.screenshot(join(shots, "view-mid-roll.png"));

      // `view --snapshot x.png`: the same drawing, rendered by the same Chromium.
      const png = join(await mkdtemp(join(tmpdir(), "view-snapshot-")), "rack.png");
      const svg = source.snapshot.svg ?? "";
      expect(svg).toContain("U01 r01n01 booted rocky9-compute");
      await renderPng(svg, png);
      const bytes = await readFile(png);
      expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(bytes.readUInt32BE(16)).toBe(svgSize(svg).width);
    },
    10 * 60_000,
  );

  it(
    "shows the failed node, and on a click its facts, inherited attributes and owner, secrets as [secret]",
    async () => {
      await page.waitFor(`${nodeState("r01n04")} === "failed"`);
      expect(await page.evaluate<string>(nodeText("r01n04"))).toBe("U04 r01n04 failed");
      await page.evaluate(
        `document.querySelector('[data-node="r01n04"]').dispatchEvent(new MouseEvent("click", { bubbles: true }))`,
      );
      await page.waitFor(`document.querySelector("#detail h2")?.textContent === "r01n04"`);
      const facts = await page.evaluate<string[]>(
        `[...document.querySelectorAll("#facts li")].map((e) => e.textContent)`,
      );
      expect(facts).toContain("state: failed: xCAT status failed");
      expect(facts).toContain("managed by: xcat:Node r01n04");
      expect(facts).toContain("acted on by: xcat:Deployment compute");
      const rows = await page.evaluate<string[][]>(
        `[...document.querySelectorAll("#attributes tr")].map((r) => [...r.children].map((c) => c.textContent))`,
      );
      expect(rows).toContainEqual(["bmcpassword", "[secret]", "from group compute"]);
      expect(rows).toContainEqual(["bmc", "127.0.10.4", "the node's own"]);
      const html = await page.evaluate<string>("document.documentElement.outerHTML");
      expect(html).not.toContain("rack-bmc-secret");
      await page.screenshot(join(shots, "view-failed-node.png"));

      await page.evaluate(
        `document.querySelector('[data-node="r01n09"]').dispatchEvent(new MouseEvent("click", { bubbles: true }))`,
      );
      await page.waitFor(`document.querySelector("#detail h2")?.textContent === "r01n09"`);
      const unmanaged = await page.evaluate<string[]>(
        `[...document.querySelectorAll("#facts li")].map((e) => e.textContent)`,
      );
      expect(unmanaged).toContain("managed by: not under code");
    },
    10 * 60_000,
  );

  it(
    "says the management node cannot be reached, in the page, and keeps the drawing",
    async () => {
      await roll;
      await page.waitFor(`${nodeState("r01n08")} === "booted"`);
      await page.screenshot(join(shots, "view-after-roll.png"));
      await h.emulator.close();
      await source.tick();
      await page.waitFor(`document.getElementById("problem").textContent !== ""`);
      expect(await page.evaluate<string>(`document.getElementById("problem").textContent`)).toMatch(
        /^the stack's management node \(http:\/\/127\.0\.0\.1:\d+\/xcatws\) cannot be reached: .* The drawing below is from /,
      );
      expect(await page.evaluate<string>(nodeText("r01n08"))).toContain("booted rocky9-compute");
    },
    10 * 60_000,
  );
});
