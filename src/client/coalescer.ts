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
  readonly #lanes = new Map<string, Lane<I, R>>();

  constructor(options: CoalescerOptions<I, R>) {
    this.#run = options.run;
    this.#maxBatchSize = options.maxBatchSize ?? 100;
    this.#windowMs = options.windowMs ?? 0;
  }

  /** Queues `item` on `lane`; resolves with its own outcome. */
  submit(lane: string, item: I): Promise<R> {
    this.stats.calls += 1;
    let state = this.#lanes.get(lane);
    if (state === undefined) {
      state = { queue: [], inFlight: 0, scheduled: false };
      this.#lanes.set(lane, state);
    }
    const current = state;
    return new Promise<R>((resolve, reject) => {
      current.queue.push({ item, resolve, reject });
      if (current.queue.length >= this.#maxBatchSize) this.#flush(lane, current);
      else this.#schedule(lane, current);
    });
  }

  #schedule(lane: string, state: Lane<I, R>): void {
    if (state.scheduled || state.inFlight > 0 || state.queue.length === 0) return;
    state.scheduled = true;
    const flush = () => {
      state.scheduled = false;
      if (state.inFlight === 0) this.#flush(lane, state);
    };
    if (this.#windowMs > 0) setTimeout(flush, this.#windowMs);
    else setImmediate(flush);
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
        if (state.inFlight === 0 && state.queue.length === 0) this.#lanes.delete(lane);
        else this.#schedule(lane, state);
      });
  }
}
