/**
 * Confluent's HTTP sessions (httpapi.py:293 _authorize_request, :399 _establish_http_session):
 * every Basic-authenticated request opens one, answered with
 * `Set-Cookie: confluentsessionid=<32 chars>; HttpOnly; Path=/; Secure`; the id comes back in the
 * `ConfluentSession` header or the cookie; 90 s idle expiry; a session opened with a
 * `ConfluentAuthToken` header gets a CSRF token that every later request must send back.
 */
import { randomBytes } from "node:crypto";

export interface Session {
  readonly id: string;
  readonly user: string;
  expiry: number;
  readonly csrftoken?: string;
}

export const SESSION_IDLE_SECONDS = 90;

/** util.randomstring(32): URL-safe base64 of random bytes. */
function randomString(length: number): string {
  return randomBytes(length).toString("base64url").slice(0, length);
}

export class SessionTable {
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  open(user: string, withCsrf: boolean): Session {
    let id = randomString(32);
    while (this.#sessions.has(id)) id = randomString(32);
    const session: Session = {
      id,
      user,
      expiry: this.#now() + SESSION_IDLE_SECONDS * 1000,
      ...(withCsrf ? { csrftoken: randomString(32) } : {}),
    };
    this.#sessions.set(id, session);
    return session;
  }

  /** The live session with this id, its idle clock restarted; undefined when unknown or expired. */
  touch(id: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session) return undefined;
    if (session.expiry < this.#now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    session.expiry = this.#now() + SESSION_IDLE_SECONDS * 1000;
    return session;
  }

  has(id: string): boolean {
    return this.touch(id) !== undefined;
  }

  close(id: string): void {
    this.#sessions.delete(id);
  }
}
