/**
 * `pulumi-xcat view` on Confluent, against in-process emulators: the tick reads 1,000 nodes of a
 * Confluent server in two requests (every node's attributes, every node's power, each for the
 * noderange `everything`), places them by Confluent's location.rack and location.u; and a stack
 * with several servers draws each in its own section, the one that cannot be reached said in a
 * sentence while the others still draw, and the page's node answer says which server a node is on
 * when two servers hold a node of one name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningViewServer, serveView } from "../../src/cli/view/view-server";
import { confluentViewServer, ViewSource, xcatViewServer } from "../../src/cli/view/view-source";
import { XcatClient } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";

const two = (n: number) => String(n).padStart(2, "0");

/** A stack's state: rack 1's 25 nodes are Node resources of the stack (TypeScript's type token). */
const state = {
  deployment: {
    resources: Array.from({ length: 25 }, (_, i) => {
      const node = `r01n${two(i + 1)}`;
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

describe("view on a Confluent server (1,000 nodes)", () => {
  let confluent: RunningConfluentEmulator;
  let client: ConfluentClient;
  let source: ViewSource;

  beforeAll(async () => {
    confluent = await startConfluentEmulator({ seedCluster: "racks:40x25" });
    client = new ConfluentClient({ url: confluent.url, username: "root", password: "cluster" });
    source = new ViewSource({
      stack: "dev",
      servers: [confluentViewServer(client, `the stack's Confluent server (${confluent.url})`)],
      readState: async () => state,
      intervalMs: 5000,
    });
  }, 120_000);

  afterAll(async () => {
    await source?.stop();
    await client?.close();
    await confluent?.close();
  });

  it("T144 reads the whole cluster in two requests per tick, one per kind, and places it by location.rack and location.u", async () => {
    const counts: number[] = [];
    const paths: string[][] = [];
    for (let tick = 0; tick < 3; tick++) {
      const before = confluent.state.requests().length;
      await source.tick();
      const sent = confluent.state.requests().slice(before);
      counts.push(sent.length);
      paths.push(sent.map((request) => `${request.method} ${request.path}`).sort());
    }
    // The figure docs/view.md gives.
    console.log(
      `view on Confluent, 1,000 nodes: requests per tick ${counts.join(", ")}: ${paths[2]?.join(", ")}`,
    );
    expect(counts).toEqual([2, 2, 2]);
    expect(paths[2]).toEqual([
      "GET /confluent-api/noderange/everything/attributes/current",
      "GET /confluent-api/noderange/everything/power/state",
    ]);
    const model = source.snapshot.model;
    expect(source.snapshot.problem).toBeUndefined();
    expect(model?.nodes.size).toBe(1000);
    expect(model?.placement.columns).toHaveLength(40);
    const rack1 = model?.placement.columns[0];
    expect([rack1?.title, rack1?.rule, rack1?.notes]).toEqual(["rack 1", "rack", []]);
    expect(rack1?.nodes.slice(0, 2)).toEqual([
      { node: "r01n01", position: 1 },
      { node: "r01n02", position: 2 },
    ]);
    expect(model?.notUnderCode).toBe(975);
    const node = model?.nodes.get("r01n01");
    expect([node?.state, node?.label, node?.owner]).toEqual(["off", "off", "xcat:Node r01n01"]);
    expect(node?.attributes).toContainEqual({
      name: "secret.hardwaremanagementpassword",
      value: "[secret]",
      from: "compute",
    });
    expect(JSON.stringify(node)).not.toContain("rack-bmc-secret");
    expect(source.snapshot.svg).toContain("U01 r01n01 off");
  }, 120_000);
});

describe("view of a stack with several servers", () => {
  let xcat: RunningEmulator;
  let confluent: RunningConfluentEmulator;
  let dead: RunningConfluentEmulator;
  let xcatClient: XcatClient;
  let confluentClient: ConfluentClient;
  let deadClient: ConfluentClient;
  let source: ViewSource;
  let server: RunningViewServer;
  const said: Array<string | undefined> = [];

  beforeAll(async () => {
    [xcat, confluent, dead] = await Promise.all([
      startEmulator({ seedCluster: "racks:1x4" }),
      startConfluentEmulator({ seedCluster: "racks:1x3" }),
      startConfluentEmulator({}),
    ]);
    xcatClient = new XcatClient({ url: xcat.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
    confluentClient = new ConfluentClient({ url: confluent.url, username: "root", password: "cluster" });
    deadClient = new ConfluentClient({
      url: dead.url,
      username: "root",
      password: "cluster",
      retry: { attempts: 1 },
    });
    await dead.close();
    source = new ViewSource({
      stack: "dev",
      servers: [
        xcatViewServer(xcatClient, `provider mnA (${xcat.url}, xCAT)`, new Set(["urn:mnA"])),
        confluentViewServer(deadClient, `provider gone (${dead.url}, Confluent)`, new Set(["urn:gone"])),
        confluentViewServer(
          confluentClient,
          `provider cf (${confluent.url}, Confluent)`,
          new Set(["urn:cf"]),
        ),
      ],
      readState: async () => ({}),
      intervalMs: 5000,
      onTick: (snapshot) => said.push(snapshot.problem),
    });
    server = await serveView(source, "127.0.0.1", 0);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await source?.stop();
    await Promise.all([xcatClient?.close(), confluentClient?.close(), deadClient?.close()]);
    await Promise.all([xcat?.close(), confluent?.close()]);
  });

  it("T145 draws every server's nodes in a section headed by its URL; one that cannot be reached gets a sentence, the others still draw", async () => {
    await source.tick();
    const sections = source.snapshot.sections ?? [];
    expect(sections.map((section) => [section.name, section.model?.nodes.size])).toEqual([
      [`provider mnA (${xcat.url}, xCAT)`, xcat.state.listObjects("node").length],
      [`provider gone (${dead.url}, Confluent)`, undefined],
      [`provider cf (${confluent.url}, Confluent)`, 3],
    ]);
    expect(sections[1]?.problem).toMatch(
      /^provider gone \(http:\/\/127\.0\.0\.1:\d+\/confluent-api, Confluent\) cannot be reached: .*No drawing of it yet; the other servers are drawn\.$/,
    );
    // The terminal's sentence (view-command prints what onTick gets) and the page's.
    expect(said.at(-1)).toBe(sections[1]?.problem);
    const view = (await (await fetch(`${server.url}api/view`)).json()) as {
      svg: string;
      problem: string;
      status: string;
    };
    expect(view.problem).toBe(sections[1]?.problem);
    expect(view.status).toMatch(
      new RegExp(
        `^Stack dev, ${xcat.state.listObjects("node").length + 3} nodes on 2 of 3 servers, read at `,
      ),
    );
    for (const [index, section] of sections.entries())
      expect(view.svg).toContain(`server ${index + 1}: ${section.name}`);
    // r01n01 is on mnA and on cf: the page asks by section, and the panel names the server.
    const ask = async (index: number) =>
      (await (await fetch(`${server.url}api/node?name=r01n01&server=${index}`)).json()) as {
        facts: string[];
        backend: string;
        server: string;
      };
    const onXcat = await ask(0);
    const onConfluent = await ask(2);
    expect([onXcat.backend, onXcat.facts[0]]).toEqual(["xcat", `server: provider mnA (${xcat.url}, xCAT)`]);
    expect([onConfluent.backend, onConfluent.facts[0]]).toEqual([
      "confluent",
      `server: provider cf (${confluent.url}, Confluent)`,
    ]);
    expect(view.svg).toMatch(/data-node="r01n01" data-server="2"/);
  }, 120_000);
});
