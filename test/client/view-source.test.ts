/**
 * `pulumi-xcat view`'s tick and server against an in-process emulator with xCAT's cost model on:
 * the management node sees at most three requests per tick at 1,024 nodes however many pages
 * poll, the page's answers come from the tick, secrets read `[secret]`, and a management node
 * that stops answering is said in a sentence while the last drawing is kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningViewServer, serveView } from "../../src/cli/view/view-server";
import { ViewSource } from "../../src/cli/view/view-source";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";

/** A stack's state as `pulumi stack export` gives it: rack 1's nodes are under code, the rest are not. */
const state = {
  deployment: {
    resources: Array.from({ length: 32 }, (_, i) => {
      const node = `r01n${String(i + 1).padStart(2, "0")}`;
      return {
        urn: `urn:pulumi:dev::lab::pulumi-nodejs:dynamic/xcat:Node::${node}`,
        type: "pulumi-nodejs:dynamic/xcat:Node",
        id: node,
        inputs: { name: node, groups: ["compute", "all"], attributes: {} },
        outputs: { name: node, groups: ["compute", "all"], attributes: {} },
      };
    }),
  },
};

describe("view tick and server on the emulator (1,024 nodes, cost model on)", () => {
  let emulator: RunningEmulator;
  let client: XcatClient;
  let source: ViewSource;
  let server: RunningViewServer;
  const ticks: Array<string | undefined> = [];

  beforeAll(async () => {
    emulator = await startEmulator({ seedCluster: "racks:32x32", costModel: "xcat", costScale: 0.01 });
    client = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
    source = new ViewSource({
      stack: "dev",
      managementNode: `the stack's management node (${emulator.url})`,
      client,
      readState: async () => state,
      intervalMs: 5000,
      onTick: (snapshot) => ticks.push(snapshot.problem),
    });
    server = await serveView(source, "127.0.0.1", 0);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await source?.stop();
    await client?.close();
    await emulator?.close();
  });

  it("reads the whole cluster in at most three requests per tick, one per kind", async () => {
    const counts: number[] = [];
    const routes: Record<string, number>[] = [];
    for (let tick = 0; tick < 3; tick++) {
      const before = emulator.stats();
      await source.tick();
      const after = emulator.stats();
      counts.push(after.total - before.total);
      routes.push(
        Object.fromEntries(
          Object.entries(after.byRoute)
            .map(([route, n]) => [route, n - (before.byRoute[route] ?? 0)] as const)
            .filter(([, n]) => n > 0),
        ),
      );
    }
    for (const count of counts) expect(count).toBeLessThanOrEqual(3);
    // After the first tick (which may fetch a token): one table read and one power read.
    expect(counts.slice(1)).toEqual([2, 2]);
    expect(Object.keys(routes[2] ?? {}).sort()).toEqual([
      expect.stringMatching(/^GET \/nodes\/.*power/),
      expect.stringMatching(/^GET \/tables\/.*rows/),
    ]);
    expect(ticks).toEqual([undefined, undefined, undefined]);
    const model = source.snapshot.model;
    expect(model?.notes).toEqual([]); // power read for every node, nothing left undrawn
    expect(model?.nodes.get("r01n01")?.facts).toContain("power: on");
    process.stdout.write(`view requests per tick at ${model?.nodes.size} nodes: ${counts.join(", ")}\n`);
    expect(model?.nodes.size).toBeGreaterThanOrEqual(1024);
    const racks = model?.placement.columns.filter((column) => column.rule === "rack") ?? [];
    expect(racks).toHaveLength(32);
    expect(racks[0]?.nodes).toHaveLength(32);
    expect(model?.notUnderCode).toBe((model?.nodes.size ?? 0) - 32);
  }, 120_000);

  it("answers the page from the last tick: polls and clicks cost the management node nothing", async () => {
    const before = emulator.stats().total;
    for (let poll = 0; poll < 5; poll++) {
      const view = (await (await fetch(`${server.url}api/view`)).json()) as { svg?: string; status: string };
      expect(view.svg).toContain("U01 r01n01");
      expect(view.status).toMatch(/^Stack dev, \d+ nodes, read at /);
    }
    const node = (await (await fetch(`${server.url}api/node?name=r01n01`)).json()) as {
      owner: string;
      attributes: Array<{ name: string; value: string; from?: string }>;
    };
    expect(node.owner).toBe("xcat:Node r01n01");
    expect(node.attributes).toContainEqual({ name: "bmcpassword", value: "[secret]", from: "compute" });
    expect(node.attributes).toContainEqual({ name: "ip", value: "10.0.1.1", from: "compute" });
    const page = await (await fetch(server.url)).text();
    expect(page).toContain('<script src="/view.js"></script>');
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    const missing = await fetch(`${server.url}api/node?name=nosuch`);
    expect(missing.status).toBe(404);
    expect(emulator.stats().total).toBe(before);
  });

  it("answers only at the address it listens on (no other Host name)", async () => {
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${server.url}api/view`, { headers: { host: "attacker.example:80" } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it("says in a sentence when the management node cannot be reached, and keeps the last drawing", async () => {
    const drawn = source.snapshot.svg;
    await emulator.close();
    await source.tick();
    const view = (await (await fetch(`${server.url}api/view`)).json()) as { svg?: string; problem?: string };
    expect(view.problem).toMatch(
      /^the stack's management node \(.*\) cannot be reached: .*The drawing below is from /,
    );
    expect(view.svg).toBe(drawn);
    expect(ticks.at(-1)).toBe(view.problem);
  }, 120_000);
});
