/**
 * A counting semaphore: at most `limit` exchanges in flight per client, the rest wait in order.
 * A management node runs one CGI process and one xcatd exchange per request, so an unbounded
 * burst from a large Pulumi stack mostly produces 503s.
 */
export class Limiter {
  readonly #limit: number;
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#waiting.length;
  }

  /**
   * Runs `task` when a slot is free.
   *
   * @example
   * ```ts
   * const limiter = new Limiter(8);
   * await limiter.run(() => fetchSomething());
   * ```
   */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#limit) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active += 1;
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next waiter, so #active stays counted.
      if (next) next();
      else this.#active -= 1;
    }
  }
}
