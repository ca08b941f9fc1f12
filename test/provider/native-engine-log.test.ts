/**
 * The native provider's lines through the engine's Log service (issue #36 item 3), with the
 * handlers called as the engine calls them against a fresh emulator, and an Engine service in
 * process that records what it receives (the real engine's display of it is in
 * test/e2e/native-messages.test.ts). Each line arrives once, under the URN of the call it belongs
 * to, in the order said, and before that call answers: none can be lost when the engine closes
 * the provider after the last step.
 */
import * as grpc from "@grpc/grpc-js";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XcatClient } from "../../src/client";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { engineAddressOf, sayLinesThroughEngine } from "../../src/native/engine-log";
import { resetProcessContext } from "../../src/provider/process-context";
import { callHandler, configureNative, nativeUrn, struct } from "./native-support";

/** What happened, in order: a line the engine received, or a call's answer. */
type Event = { line: string; urn: string; severity: number } | { answered: string };

let emulator: RunningEmulator;
let engine: grpc.Server;
let stopSaying: () => void;
const events: Event[] = [];

const linesOf = (urn: string) =>
  events.flatMap((event) => ("line" in event && event.urn === urn ? [event.line] : []));
const answerIndex = (urn: string) =>
  events.findIndex((event) => "answered" in event && event.answered === urn);
const lastLineIndex = (urn: string) => events.findLastIndex((event) => "line" in event && event.urn === urn);

async function answered<T>(method: string, urn: string, request: unknown): Promise<T> {
  const response = await callHandler<T>(method, request);
  events.push({ answered: urn });
  return response;
}

beforeAll(async () => {
  engine = new grpc.Server();
  engine.addService(
    EngineService as unknown as grpc.ServiceDefinition,
    {
      log: (call: { request: LogRequest }, callback: (error: null, response: Empty) => void) => {
        const request = call.request;
        events.push({ line: request.getMessage(), urn: request.getUrn(), severity: request.getSeverity() });
        callback(null, new Empty());
      },
    } as unknown as grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolvePort, reject) =>
    engine.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolvePort(bound),
    ),
  );
  // The arguments as the engine starts a plugin with logging flowed to it.
  const address = engineAddressOf(["--logtostderr", "-v=9", "--tracing", "x:1", `127.0.0.1:${port}`]);
  expect(address).toBe(`127.0.0.1:${port}`);
  stopSaying = sayLinesThroughEngine(address as string);

  emulator = await startEmulator({ bootSeconds: 1 });
  const admin = new XcatClient({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
  await admin.nodes.create("handmade01", { groups: "compute,all", mgt: "ipmi", ip: "10.0.0.77" });
  await admin.globalconf.setAttrs({ dhcpsetup: "n" });
  await admin.nodes.create("d[01-06]", {
    groups: "compute,all",
    mgt: "ipmi",
    netboot: "xnba",
    mac: "02:00:00:00:00:01",
    ip: "|\\D+(\\d+)$|10.9.0.($1+0)|",
  });
  await admin.osimages.create("rhels9.4-x86_64-install-compute", {
    imagetype: "linux",
    provmethod: "install",
    profile: "compute",
    osname: "Linux",
    osvers: "rhels9.4",
    osarch: "x86_64",
  });
  await admin.close();
  await configureNative({ url: emulator.url, username: "root", password: EMULATOR_DEFAULT_PASSWORD });
});

afterAll(async () => {
  stopSaying?.();
  await resetProcessContext();
  await emulator?.close();
  engine?.forceShutdown();
});

describe("native provider lines through Engine.Log", () => {
  it("a takeover at check is said once, under the node, before check answers", async () => {
    const urn = nativeUrn("Node", "taken");
    const checked = await answered<provproto.CheckResponse>(
      "check",
      urn,
      new provproto.CheckRequest()
        .setUrn(urn)
        .setOlds(struct({}))
        .setNews(
          struct({
            name: "handmade01",
            adopt: true,
            groups: ["compute", "all"],
            attributes: { mgt: "ipmi", ip: "10.0.0.77", usercomment: "managed" },
          }),
        ),
    );
    expect(checked.getFailuresList().map((failure) => failure.getReason())).toEqual([]);
    expect(linesOf(urn)).toEqual([
      "xcat:Node: takes over the existing node 'handmade01', changing usercomment: (unset) → managed",
    ]);
    expect(lastLineIndex(urn)).toBeLessThan(answerIndex(urn));
  });

  it("a node's name services are said under the node, at check and after create", async () => {
    const urn = nativeUrn("Node", "fresh");
    const checked = await answered<provproto.CheckResponse>(
      "check",
      urn,
      new provproto.CheckRequest()
        .setUrn(urn)
        .setOlds(struct({}))
        .setNews(struct({ name: "fresh01", groups: ["compute", "all"], attributes: { ip: "10.0.0.88" } })),
    );
    await answered(
      "create",
      urn,
      new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()),
    );
    expect(linesOf(urn)).toEqual([
      "xcat:Node fresh01: up sends name services: makehosts, makedns",
      "xcat:Node fresh01: name services: makehosts, makedns",
    ]);
    expect(lastLineIndex(urn)).toBeLessThan(events.findLastIndex((event) => "answered" in event));
  });

  it("a Deployment's progress is said under it, in order, every line before create answers", async () => {
    const urn = nativeUrn("Deployment", "roll");
    const inputs = {
      nodes: "d[01-06]",
      osimage: "rhels9.4-x86_64-install-compute",
      batchSize: 2,
      concurrency: 1,
      canary: 0,
      pollSeconds: 0.2,
    };
    const checked = await answered<provproto.CheckResponse>(
      "check",
      urn,
      new provproto.CheckRequest().setUrn(urn).setOlds(struct({})).setNews(struct(inputs)),
    );
    await answered(
      "create",
      urn,
      new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()),
    );
    const lines = linesOf(urn);
    const sent = lines.filter((line) => line.includes(" sent to "));
    expect(sent).toEqual([
      expect.stringMatching(/^xcat:Deployment d\[01-02\]: rhels9\.4-x86_64-install-compute sent to 2 node/),
      expect.stringMatching(/^xcat:Deployment d\[03-04\]: rhels9\.4-x86_64-install-compute sent to 2 node/),
      expect.stringMatching(/^xcat:Deployment d\[05-06\]: rhels9\.4-x86_64-install-compute sent to 2 node/),
    ]);
    // Each batch's "sent" comes before its last status line, and the next batch's "sent" after it.
    expect(lines.indexOf(sent[1] as string)).toBeGreaterThan(
      lines.findIndex((line) => /d\[01-02\]: .*booted/.test(line)),
    );
    expect(new Set(lines).size).toBe(lines.length);
    expect(lastLineIndex(urn)).toBeLessThan(
      events.findLastIndex((event) => "answered" in event && event.answered === urn),
    );
    // Progress is information, not a warning.
    expect(events.every((event) => !("line" in event) || event.severity === 1)).toBe(true);
  });

  it("with the engine gone, a line goes to stderr and the call still answers", async () => {
    engine.forceShutdown();
    const urn = nativeUrn("Node", "taken-again");
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) =>
      written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      await answered(
        "check",
        urn,
        new provproto.CheckRequest()
          .setUrn(urn)
          .setOlds(struct({}))
          .setNews(
            struct({
              name: "handmade01",
              adopt: true,
              groups: ["compute", "all"],
              attributes: { mgt: "ipmi", ip: "10.0.0.77", usercomment: "again" },
            }),
          ),
      );
    } finally {
      process.stderr.write = write;
    }
    expect(linesOf(urn)).toEqual([]);
    expect(written).toContain(
      "xcat:Node: takes over the existing node 'handmade01', changing usercomment: (unset) → again\n",
    );
  });
});
