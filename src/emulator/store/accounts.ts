/**
 * Accounts, tokens and authorization as xcatd does them (xcat-behavior.md §4): passwords from the
 * `passwd` row key=xcat, tokens in the `token` table, and the `policy` table deciding whether a
 * user may run a command.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "./database";

/** xCAT's expiry text: local time "Y-M-D h:m:s" without zero padding (Utils.pm time2string). */
export function formatExpiry(date: Date): string {
  return `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()} ${date.getHours()}:${date.getMinutes()}:${date.getSeconds()}`;
}

/** Parses an expiry written by {@link formatExpiry}; undefined when it is not one. */
export function parseExpiry(text: string): Date | undefined {
  const m = /^(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+)$/.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number);
  if ([y, mo, d, h, mi, s].some((n) => n === undefined || Number.isNaN(n))) return undefined;
  return new Date(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
}

export interface TokenOptions {
  /** Overrides the validity (tokenexpiredays) when set. */
  readonly ttlSeconds?: number;
}

export class Accounts {
  readonly #db: Database;
  readonly #clock: () => Date;
  readonly #options: TokenOptions;

  constructor(db: Database, clock: () => Date, options: TokenOptions) {
    this.#db = db;
    this.#clock = clock;
    this.#options = options;
  }

  /**
   * becomeuser: the passwd row key=xcat for the user, matched by plain text or by the stored
   * text itself (a stored hash is accepted as the password, as crypt(pw, hash) eq hash allows).
   */
  checkPassword(user: string | undefined, password: string | undefined): boolean {
    if (!user || password === undefined || password === "") return false;
    const row = this.#db.first("passwd", { key: "xcat", username: user });
    return row?.password !== undefined && row.password === password;
  }

  /** Issues a token for the user (gettoken) and stores it in the token table. */
  issueToken(user: string): { id: string; expire: string } {
    const now = this.#clock();
    const id = randomUUID();
    let expire: string;
    if (this.#options.ttlSeconds !== undefined) {
      expire = formatExpiry(new Date(now.getTime() + this.#options.ttlSeconds * 1000));
    } else {
      const setting = this.#db.first("site", { key: "tokenexpiredays" })?.value?.trim() ?? "";
      const days = Number(setting);
      if (setting.toLowerCase() === "never") expire = "never";
      else expire = formatExpiry(new Date(now.getTime() + (days > 0 ? days : 1) * 86_400_000));
    }
    this.#db.insert("token", { tokenid: id, username: user, expire, created: formatExpiry(now) });
    return { id, expire };
  }

  /** verifytoken: the token's user, or undefined for unknown and expired tokens. */
  verifyToken(id: string): string | undefined {
    const row = this.#db.first("token", { tokenid: id });
    if (!row?.username || !row.expire) return undefined;
    if (row.expire.toLowerCase() !== "never") {
      const expires = parseExpiry(row.expire);
      if (!expires || expires.getTime() <= this.#clock().getTime()) return undefined;
    }
    this.#db.upsert("token", { tokenid: id }, { access: formatExpiry(this.#clock()) });
    return row.username;
  }

  /**
   * The policy decision for a user running a command (xcatd.pm validate): rows by numeric
   * priority, the first matching row decides; no match denies.
   */
  isAllowed(user: string, command: string, args: string): boolean {
    const rows = this.#db
      .select("policy")
      .filter((r) => r.priority !== undefined)
      .sort((a, b) => Number(a.priority) - Number(b.priority));
    for (const row of rows) {
      const wild = (v: string | undefined) => v === undefined || v === "" || v === "*";
      if (!(wild(row.name) || row.name === user)) continue;
      if (!wild(row.host)) continue;
      if (
        !wild(row.commands) &&
        !(row.commands ?? "")
          .split(",")
          .map((c) => c.trim())
          .includes(command)
      )
        continue;
      if (!wild(row.parameters)) {
        try {
          if (!new RegExp(row.parameters ?? "").test(args)) continue;
        } catch {
          continue;
        }
      }
      if (!wild(row.noderange)) continue;
      return /allow|accept|trusted/i.test(row.rule ?? "");
    }
    return false;
  }
}
