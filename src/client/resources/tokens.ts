/**
 * client.tokens: POST /tokens. The client manages its own token; this is for callers that want
 * one to hand to another program.
 */
import { TokenResponse } from "../../contract/envelope";
import { parseTokenExpiry, type XcatToken } from "../auth";
import { type Engine, parseBody } from "../engine";
import { createXcatError } from "../errors";
import type { CallOptions } from "../types";

/** Account credentials for POST /tokens. */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** A token with its expiry read: `expiresAt` is undefined for "never" or an unreadable text. */
export interface IssuedToken extends XcatToken {
  readonly expiresAt: Date | undefined;
}

/**
 * Tokens.
 *
 * @example
 * ```ts
 * const { id, expire } = await client.tokens.create();
 * ```
 */
export class TokensApi {
  readonly #engine: Engine;
  readonly #credentials: Credentials | undefined;
  readonly #remember: (secret: string) => void;

  constructor(engine: Engine, credentials: Credentials | undefined, remember: (secret: string) => void) {
    this.#engine = engine;
    this.#credentials = credentials;
    this.#remember = remember;
  }

  /**
   * Requests a new token with the client's username and password, or with `credentials`.
   * A refused login is an XcatAuthError; repeating the request on transient failures is harmless.
   *
   * @example
   * ```ts
   * const token = await client.tokens.create({ username: "alice", password: secret });
   * ```
   */
  async create(credentials?: Credentials, options?: CallOptions): Promise<IssuedToken> {
    const account = credentials ?? this.#credentials;
    if (account === undefined) {
      throw createXcatError(
        "XCAT_USAGE",
        "tokens.create needs a username and password (client options or argument)",
      );
    }
    this.#remember(account.password);
    const answer = await this.#engine.call({
      route: "tokens.create",
      body: { userName: account.username, userPW: account.password },
      kind: "token",
      anonymous: true,
      options,
    });
    const { token } = parseBody(answer, TokenResponse);
    this.#remember(token.id);
    const expiresAt = parseTokenExpiry(token.expire);
    return {
      id: token.id,
      expire: token.expire,
      expiresAt: expiresAt === undefined || !Number.isFinite(expiresAt) ? undefined : new Date(expiresAt),
    };
  }
}
