/**
 * Tokens: parsing xCAT's expiry, deciding when to renew, and sharing one token request between
 * concurrent callers. How a token is fetched is injected, so this file does no I/O of its own.
 */

/** A token as POST /tokens returns it. `expire` is xCAT's text: "Y-M-D h:m:s" or "never". */
export interface XcatToken {
  readonly id: string;
  readonly expire: string;
}

/**
 * xCAT's token expiry as epoch milliseconds, `Infinity` for "never", or undefined when the text
 * cannot be read. xCAT writes the management node's local time without zero padding
 * ("2014-3-8 14:55:0"); it is read as this machine's local time, and a wrong guess only makes the
 * client renew early or rely on the server's "Authentication failure" (see {@link renewalTime}).
 *
 * @example
 * ```ts
 * parseTokenExpiry("never"); // Infinity
 * parseTokenExpiry("2014-3-8 14:55:0"); // new Date(2014, 2, 8, 14, 55, 0).getTime()
 * ```
 */
export function parseTokenExpiry(expire: string): number | undefined {
  const text = expire.trim();
  if (/^never$/i.test(text)) return Number.POSITIVE_INFINITY;
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{1,2}):(\d{1,2})$/.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
    return undefined;
  return new Date(year, month - 1, day, hour, minute, second).getTime();
}

/** Renew this long before expiry at most... */
export const MAX_RENEWAL_MARGIN_MS = 60_000;
/** ...and never more than this share of the token's lifetime before it. */
export const RENEWAL_MARGIN_SHARE = 0.1;

/**
 * When to stop using a token obtained at `obtainedAt`: a margin before its expiry (the smaller of
 * one minute and a tenth of its lifetime). `Infinity` means "until the server refuses it", which
 * is also the answer for expiry texts that cannot be read or that are already past on arrival
 * (clocks or time zones disagree): renewing on every request would be worse.
 *
 * @example
 * ```ts
 * renewalTime("never", Date.now()); // Infinity
 * ```
 */
export function renewalTime(expire: string, obtainedAt: number): number {
  const expiresAt = parseTokenExpiry(expire);
  if (expiresAt === undefined || expiresAt === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  const lifetime = expiresAt - obtainedAt;
  if (lifetime <= 0) return Number.POSITIVE_INFINITY;
  return expiresAt - Math.min(MAX_RENEWAL_MARGIN_MS, lifetime * RENEWAL_MARGIN_SHARE);
}

/** Where tokens come from and how the clock reads. */
export interface TokenSourceOptions {
  /** Fetches a fresh token (POST /tokens); undefined when the client was given a fixed token only. */
  readonly fetchToken?: (() => Promise<XcatToken>) | undefined;
  /** A token supplied by the caller, used until the server refuses it. */
  readonly initialToken?: string | undefined;
  readonly now: () => number;
  /** Told about every new token id, so redaction knows it. */
  readonly onToken?: ((id: string) => void) | undefined;
}

/**
 * Holds the current token. Concurrent callers that need a new one share a single request; a
 * token refused by the server is replaced once per refusal, not once per caller.
 *
 * @example
 * ```ts
 * const tokens = new TokenSource({ fetchToken: () => client.tokens.create(), now: Date.now });
 * const id = await tokens.current();
 * ```
 */
export class TokenSource {
  readonly #options: TokenSourceOptions;
  #token: string | undefined;
  #renewAt = Number.POSITIVE_INFINITY;
  #pending: Promise<string> | undefined;
  #fetches = 0;

  constructor(options: TokenSourceOptions) {
    this.#options = options;
    this.#token = options.initialToken;
    if (options.initialToken !== undefined) options.onToken?.(options.initialToken);
  }

  /** True when a refused token can be replaced (username and password were given). */
  get canRenew(): boolean {
    return this.#options.fetchToken !== undefined;
  }

  /** How many tokens were requested so far. */
  get fetches(): number {
    return this.#fetches;
  }

  /** The token to send now, fetching or renewing it first when needed. */
  async current(): Promise<string> {
    if (this.#token !== undefined && this.#options.now() < this.#renewAt) return this.#token;
    if (this.#token !== undefined && !this.canRenew) return this.#token;
    return this.#renew();
  }

  /**
   * The server refused `stale`. Returns the token to try instead, or undefined when there is
   * none (fixed token). If another caller already replaced `stale`, its replacement is returned
   * without a new request.
   */
  async replace(stale: string): Promise<string | undefined> {
    if (!this.canRenew) return undefined;
    if (this.#token !== undefined && this.#token !== stale) return this.#token;
    this.#token = undefined;
    return this.#renew();
  }

  #renew(): Promise<string> {
    const fetchToken = this.#options.fetchToken;
    if (fetchToken === undefined) return Promise.reject(new Error("no credentials to obtain a token with"));
    if (this.#pending === undefined) {
      this.#fetches += 1;
      this.#pending = (async () => {
        try {
          const obtainedAt = this.#options.now();
          const token = await fetchToken();
          this.#options.onToken?.(token.id);
          this.#token = token.id;
          this.#renewAt = renewalTime(token.expire, obtainedAt);
          return token.id;
        } finally {
          this.#pending = undefined;
        }
      })();
    }
    return this.#pending;
  }
}
