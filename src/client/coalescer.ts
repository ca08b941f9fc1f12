/**
 * Merges calls that can share one request (reads of one type, deletes of one type, equal updates)
 * by queueing them behind the request already in flight for the same lane.
 *
 * Why behind the in-flight request and not by a timer or a rate: a management node answers a
 * request in ~0.3 s or more (xcat-behavior.md section 10), and the engine sends the next provider
 * call as soon as an earlier one finishes. So calls trickle in while a request is being answered;
 * holding them until it is answered costs them nothing they would not have paid anyway (the node
 * is busy) and turns a stream of single requests into one request per round trip. When nothing is
 * in flight a call goes out on the next turn of the event loop, so a lone call does not wait, and
 * against a fast server (the plain emulator) rounds are short and the behaviour is as before.
 * With `refill` a free lane also waits, briefly, for the callers of the request that just
 * finished to send their next calls (see {@link CoalescerOptions.refill}).
 */

/** What one queued call ended with. */
export type Outcome<R> =
  | { readonly ok: true; readonly value: R }
  | { readonly ok: false; readonly error: unknown };

export interface CoalescerOptions<I, R> {
  /**
   * Runs one merged request for `items` (all of one lane) and answers every item, in order. A
   * rejection fails every item of the batch.
   */
  readonly run: (lane: string, items: readonly I[]) => Promise<readonly Outcome<R>[]>;
  /** Items per request; a full batch goes out at once even while another is in flight. Default 100. */
  readonly maxBatchSize?: number | undefined;
  /** Milliseconds a call waits for others when nothing is in flight; 0 = the next turn of the event loop. Default 0. */
  readonly windowMs?: number | undefined;
  /**
   * Wait for the callers of a finished request to come back before sending the next one (instead
   * of `windowMs`). Why: a caller that drives a fixed number of calls at once (the Pulumi engine,
   * `--parallel` steps) sends its next calls only when earlier ones are answered, a few
   * milliseconds later. Sending what is queued at once would split the calls into two groups that
   * take turns (one call, then the other 63 of 64, again and again) and cost a round trip per
   * group; waiting for them merges all of them into one request per round trip. So when a lane
   * has nothing in flight it sends once as many calls have joined as the request that just
   * finished held, or no call has joined for `quietMs`, or `maxMs` have passed since it became
   * free; a call to an idle lane waits for `quietMs` of quiet too. Worth it where a request costs
   * far more than `maxMs` (a management node: ~0.3 s or more).
   */
  readonly refill?: { readonly quietMs: number; readonly maxMs: number } | undefined;
}

interface Waiter<I, R> {
  readonly item: I;
  resolve(value: R): void;
  reject(error: unknown): void;
}

interface Lane<I, R> {
  queue: Waiter<I, R>[];
  inFlight: number;
  scheduled: boolean;
  /** With `refill`, while the lane is free and waiting for calls to join. */
  wait: RefillWait | undefined;
}

interface RefillWait {
  /** When the lane became free (ms, performance.now()). */
  readonly since: number;
  /** When the last call joined. */
  lastJoin: number;
  /** Calls that joined since. */
  joined: number;
  /** Calls the finished request held (infinite for a lane that was idle). */
  readonly expected: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** Counters of one coalescer. */
export interface CoalescerStats {
  /** Calls submitted. */
  calls: number;
  /** Merged requests run. */
  batches: number;
}

/**
 * @example
 * ```ts
 * const deletes = new Coalescer<string, void>({ run: (_lane, names) => deleteAll(names) });
 * await Promise.all(["n1", "n2"].map((name) => deletes.submit("node", name))); // one request
 * ```
 */
export class Coalescer<I, R> {
  readonly stats: CoalescerStats = { calls: 0, batches: 0 };
  readonly #run: CoalescerOptions<I, R>["run"];
  readonly #maxBatchSize: number;
  readonly #windowMs: number;
  readonly #refill: CoalescerOptions<I, R>["refill"];
  readonly #lanes = new Map<string, Lane<I, R>>();

  constructor(options: CoalescerOptions<I, R>) {
    this.#run = options.run;
    this.#maxBatchSize = options.maxBatchSize ?? 100;
    this.#windowMs = options.windowMs ?? 0;
    this.#refill = options.refill;
  }

  /** Queues `item` on `lane`; resolves with its own outcome. */
  submit(lane: string, item: I): Promise<R> {
    this.stats.calls += 1;
    let state = this.#lanes.get(lane);
    if (state === undefined) {
      state = { queue: [], inFlight: 0, scheduled: false, wait: undefined };
      this.#lanes.set(lane, state);
    }
    const current = state;
    return new Promise<R>((resolve, reject) => {
      current.queue.push({ item, resolve, reject });
      if (current.wait !== undefined) {
        current.wait.joined += 1;
        current.wait.lastJoin = performance.now();
      }
      if (current.queue.length >= this.#maxBatchSize) this.#flush(lane, current);
      else this.#schedule(lane, current);
    });
  }

  #schedule(lane: string, state: Lane<I, R>): void {
    if (this.#refill !== undefined) {
      if (state.inFlight === 0) this.#awaitRefill(lane, state, this.#refill);
      return;
    }
    if (state.scheduled || state.inFlight > 0 || state.queue.length === 0) return;
    state.scheduled = true;
    const flush = () => {
      state.scheduled = false;
      if (state.inFlight === 0) this.#flush(lane, state);
    };
    if (this.#windowMs > 0) setTimeout(flush, this.#windowMs);
    else setImmediate(flush);
  }

  /** Sends the queue of a free lane when the refill rule says so (see `refill`), else sets a timer for it. */
  #awaitRefill(lane: string, state: Lane<I, R>, refill: { quietMs: number; maxMs: number }): void {
    const now = performance.now();
    state.wait ??= {
      since: now,
      lastJoin: now,
      joined: 0,
      expected: Number.POSITIVE_INFINITY,
      timer: undefined,
    };
    const wait = state.wait;
    if (wait.timer !== undefined) clearTimeout(wait.timer);
    wait.timer = undefined;
    const due = Math.min(wait.lastJoin + refill.quietMs, wait.since + refill.maxMs);
    if (wait.joined >= wait.expected || due <= now) this.#release(lane, state);
    else wait.timer = setTimeout(() => this.#release(lane, state), due - now);
  }

  /** Ends a refill wait: sends what is queued, or forgets the lane when nothing came. */
  #release(lane: string, state: Lane<I, R>): void {
    if (state.wait?.timer !== undefined) clearTimeout(state.wait.timer);
    state.wait = undefined;
    if (state.inFlight > 0) return;
    if (state.queue.length === 0) this.#lanes.delete(lane);
    else this.#flush(lane, state);
  }

  #flush(lane: string, state: Lane<I, R>): void {
    while (state.queue.length > 0) {
      const batch = state.queue.splice(0, this.#maxBatchSize);
      this.#send(lane, state, batch);
      // Only full batches go out beside one already in flight; the rest waits for its answer.
      if (state.queue.length < this.#maxBatchSize) break;
    }
  }

  #send(lane: string, state: Lane<I, R>, batch: Waiter<I, R>[]): void {
    this.stats.batches += 1;
    state.inFlight += 1;
    if (state.wait !== undefined) {
      clearTimeout(state.wait.timer);
      state.wait = undefined;
    }
    let run: Promise<readonly Outcome<R>[]>;
    try {
      run = this.#run(
        lane,
        batch.map((waiter) => waiter.item),
      );
    } catch (error) {
      run = Promise.reject(error);
    }
    run
      .then(
        (outcomes) => {
          batch.forEach((waiter, index) => {
            const outcome = outcomes[index];
            if (outcome === undefined)
              waiter.reject(new Error("internal: a merged request answered too few items"));
            else if (outcome.ok) waiter.resolve(outcome.value);
            else waiter.reject(outcome.error);
          });
        },
        (error: unknown) => {
          for (const waiter of batch) waiter.reject(error);
        },
      )
      .finally(() => {
        state.inFlight -= 1;
        if (this.#refill !== undefined && state.inFlight === 0) {
          const now = performance.now();
          state.wait = { since: now, lastJoin: now, joined: 0, expected: batch.length, timer: undefined };
          this.#awaitRefill(lane, state, this.#refill);
        } else if (state.inFlight === 0 && state.queue.length === 0) this.#lanes.delete(lane);
        else this.#schedule(lane, state);
      });
  }
}
