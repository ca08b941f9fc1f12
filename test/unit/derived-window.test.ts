/**
 * The window in which what xCAT added to a created object answers the next creates of its shape
 * (src/client/derived-window.ts): a minute, or ten requests' time on a slower server (issue #25).
 */
import { describe, expect, it } from "vitest";
import { derivedWindowMs, MIN_DERIVED_WINDOW_MS, REQUESTS_PER_WINDOW } from "../../src/client/derived-window";

describe("derivedWindowMs", () => {
  it("is a minute before any answer and on a server answering within 6 s", () => {
    expect(derivedWindowMs(undefined)).toBe(MIN_DERIVED_WINDOW_MS);
    expect(derivedWindowMs(3)).toBe(60_000);
    expect(derivedWindowMs(6_000)).toBe(60_000);
  });

  it("spans ten requests on a slower server, as a real xCAT whose mkdef took 12 s", () => {
    expect(derivedWindowMs(12_000)).toBe(REQUESTS_PER_WINDOW * 12_000);
    expect(derivedWindowMs(12_000)).toBe(120_000);
  });
});
