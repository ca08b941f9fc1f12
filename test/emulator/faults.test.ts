/**
 * Injected faults and latency (issue item 1): before-faults change nothing, after-faults apply
 * the request and lose the answer; a seed makes a run repeatable.
 */
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";
import { call } from "./helpers";

describe("faults", () => {
  it("failNext before: 503 with the CGI's message, nothing applied, counted", async () => {
    const xcat = await startEmulator({ faults: { failNext: { status: 503, times: 1 } } });
    try {
      const reply = await call(xcat, "POST", "/nodes/f1", { body: { groups: "all" } });
      expect(reply.status).toBe(503);
      expect(reply.json).toEqual({ error: "Connection failurexx: Connection refused", errorcode: "2" });
      expect(xcat.state.getObject("node", "f1")).toBeUndefined();
      expect((await call(xcat, "POST", "/nodes/f1", { body: { groups: "all" } })).status).toBe(201);
      expect(xcat.stats()).toMatchObject({
        total: 2,
        faultsInjected: 1,
        byRoute: { "POST /nodes/{noderange}": 2 },
      });
    } finally {
      await xcat.close();
    }
  });

  it("failNext after: the write is applied and the answer lost (408)", async () => {
    const xcat = await startEmulator({ faults: { failNext: { status: 408, times: 1, when: "after" } } });
    try {
      const reply = await call(xcat, "POST", "/nodes/f1", { body: { groups: "all" } });
      expect(reply.status).toBe(408);
      expect(reply.json).toEqual({
        error: "Connection failure: SSL Timeout or incorrect certificates in ~/.xcat",
        errorcode: "2",
      });
      expect(xcat.state.getObject("node", "f1")).toBeDefined();
    } finally {
      await xcat.close();
    }
  });

  it("a dropped connection is a socket error for the client", async () => {
    const xcat = await startEmulator({ faults: { failNext: { status: "drop", times: 1 } } });
    try {
      await expect(call(xcat, "GET", "/nodes")).rejects.toThrow();
      expect((await call(xcat, "GET", "/nodes")).status).toBe(200);
    } finally {
      await xcat.close();
    }
  });

  it("faultRate with a seed gives the same sequence of outcomes", async () => {
    const run = async () => {
      const xcat = await startEmulator({ faultRate: 0.5, seed: 99 });
      const outcomes: string[] = [];
      try {
        for (let i = 0; i < 20; i++) {
          outcomes.push(
            await call(xcat, "GET", "/policy/1").then(
              (r) => String(r.status),
              () => "drop",
            ),
          );
        }
        expect(xcat.stats().faultsInjected).toBe(outcomes.filter((o) => o !== "200").length);
      } finally {
        await xcat.close();
      }
      return outcomes;
    };
    const first = await run();
    expect(first.some((o) => o !== "200")).toBe(true);
    expect(first.some((o) => o === "200")).toBe(true);
    expect(await run()).toEqual(first);
  });

  it("latency delays each request", async () => {
    const xcat = await startEmulator({ latencyMs: [60, 80] });
    try {
      const start = Date.now();
      await call(xcat, "GET", "/policy");
      expect(Date.now() - start).toBeGreaterThanOrEqual(55);
    } finally {
      await xcat.close();
    }
  });
});
