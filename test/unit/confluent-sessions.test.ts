/**
 * Confluent's HTTP sessions as the emulator keeps them: 32-character ids, a 90 s idle expiry
 * restarted by each use, a CSRF token only when asked for (httpapi.py:399 _establish_http_session,
 * :329 `expiry = time.time() + 90`).
 */
import { describe, expect, it } from "vitest";
import { SESSION_IDLE_SECONDS, SessionTable } from "../../src/confluent-emulator/http/sessions";

describe("sessions", () => {
  it("expire after 90 idle seconds, each use restarting the clock", () => {
    let now = 1_000_000;
    const table = new SessionTable(() => now);
    const s = table.open("root", false);
    expect(s.id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(s.csrftoken).toBeUndefined();
    now += (SESSION_IDLE_SECONDS - 1) * 1000;
    expect(table.touch(s.id)?.user).toBe("root");
    now += (SESSION_IDLE_SECONDS - 1) * 1000;
    expect(table.has(s.id)).toBe(true);
    now += (SESSION_IDLE_SECONDS + 1) * 1000;
    expect(table.touch(s.id)).toBeUndefined();
  });

  it("carry a CSRF token when opened with ConfluentAuthToken, and end at logout", () => {
    const table = new SessionTable();
    const s = table.open("root", true);
    expect(s.csrftoken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    table.close(s.id);
    expect(table.has(s.id)).toBe(false);
  });
});
