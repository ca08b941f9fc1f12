/** The tests' wait for a state (test/support/wait-for-state.ts): no deadline of its own. */
import { describe, expect, it } from "vitest";
import { waitForState } from "../support/wait-for-state";

describe("waitForState", () => {
  it("resolves once the condition holds, checking it again after each interval", async () => {
    let checks = 0;
    await waitForState(() => ++checks === 3, "the third check", {
      signal: new AbortController().signal,
      everyMs: 1,
    });
    expect(checks).toBe(3);
  });

  it("fails as soon as what the state depends on has ended without it, naming both", async () => {
    const up = Promise.resolve({ exitCode: 1 });
    await expect(
      waitForState(() => false, 'the "sent to" line', {
        signal: new AbortController().signal,
        until: { ended: up, what: "pulumi up" },
      }),
    ).rejects.toThrow('pulumi up ended before the "sent to" line');
  });

  it("a state reached as its process ends still counts", async () => {
    let printed = false;
    const up = Promise.resolve().then(() => {
      printed = true;
    });
    await waitForState(() => printed, "the line", {
      signal: new AbortController().signal,
      until: { ended: up, what: "pulumi up" },
    });
    expect(printed).toBe(true);
  });

  it("ends when the test's signal aborts (its timeout), naming the state", async () => {
    const test = new AbortController();
    const waiting = waitForState(() => false, "the first batch to be sent", {
      signal: test.signal,
      everyMs: 60_000,
    });
    test.abort();
    await expect(waiting).rejects.toThrow(
      "the test ended (its timeout) while waiting for the first batch to be sent",
    );
  });
});
