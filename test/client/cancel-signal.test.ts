/**
 * The clients' own `signal` (XcatClientOptions.signal, ConfluentClientOptions.signal): once it is
 * aborted, a call fails at once with an XcatCancelledError that says the request was not sent,
 * and nothing reaches the server, a merged read or a write alike. Cutting off a request in
 * flight is test/provider/native-cancel.test.ts, against an emulator that holds answers back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCancelled, XcatClient } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { EMULATOR_DEFAULT_PASSWORD, type RunningEmulator, startEmulator } from "../../src/emulator";
import { type ConfluentTarget, confluentTarget } from "./support/confluent-target";

let emulator: RunningEmulator;
let confluent: ConfluentTarget;

beforeAll(async () => {
  emulator = await startEmulator();
  confluent = await confluentTarget();
});

afterAll(async () => {
  await emulator?.close();
  await confluent?.close();
});

async function failure(call: Promise<unknown>): Promise<Error & { maybeApplied?: boolean }> {
  return call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (error: unknown) => error as Error,
  );
}

describe("a client whose signal is aborted", () => {
  it("XcatClient sends nothing more, naming the request and the reason", async () => {
    const controller = new AbortController();
    const client = new XcatClient({
      url: emulator.url,
      username: "root",
      password: EMULATOR_DEFAULT_PASSWORD,
      signal: controller.signal,
    });
    await client.verifyConnection();
    const before = emulator.stats().total;
    controller.abort(new Error("the Pulumi engine asked to cancel"));
    // Each call made when it is awaited: a second promise made up front rejects while the first is
    // awaited, which Node reports as an unhandled rejection (the full suite's run at 12:40 did).
    for (const call of [() => client.nodes.get("n1"), () => client.nodes.update("n1", { room: "x" })]) {
      const error = await failure(call());
      expect(isCancelled(error)).toBe(true);
      expect(error.maybeApplied).toBe(false);
      expect(error.message).toMatch(/cancelled \(the Pulumi engine asked to cancel\): it was not sent/);
    }
    expect(emulator.stats().total).toBe(before);
    await client.close();
  });

  it("ConfluentClient too", async () => {
    const controller = new AbortController();
    const client = new ConfluentClient({
      url: confluent.url,
      username: confluent.username,
      password: confluent.password,
      signal: controller.signal,
    });
    controller.abort(new Error("the Pulumi engine asked to cancel"));
    const error = await failure(client.nodes.get("n1"));
    expect(isCancelled(error)).toBe(true);
    expect(error.maybeApplied).toBe(false);
    expect(error.message).toMatch(/GET \S+ cancelled \(the Pulumi engine asked to cancel\): it was not sent/);
    await client.close();
  });
});
