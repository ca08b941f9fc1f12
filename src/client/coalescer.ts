/**
 * Merges calls that can share one request (reads of one type, deletes of one type, equal updates)
 * by queueing them behind the request already in flight for the same lane.
 *
 * Why behind the in-flight request: a management node answers a request in ~0.3 s or more
 * (xcat-behavior.md section 10), and the engine sends the next provider call as soon as an earlier
 * one finishes. So calls trickle in while a request is being answered; holding them until it is
 * answered costs them nothing they would not have paid anyway (the node is busy) and turns a
 * stream of single requests into one request per round trip.
 *
 * With a {@link HoldPolicy} a free lane also holds its calls, for at most what one request costs
 * on that server (measured as the run goes), so that the calls still arriving join them; it sends
 * at once when no further call can come (every caller is waiting on us) or the batch is full.
 * Why bounded by a request's cost: sending part of the calls now and the rest behind it takes two
 * round trips; holding them all for up to one round trip never takes longer than that, and saves
 * the management node a request whenever the rest arrive in time. Why measured, not fixed: how
 * fast a real engine hands over its next calls and how fast a real management node answers vary
 * with load (issue #25: a fixed 50 ms quiet time split a roll into merges of 2-8 nodes on a real
 * xCAT), and a fast server (the plain emulator) should not be held back at all.
 * Without a hold policy a call to an idle lane waits `windowMs` (or the next turn of the event loop).
 */

import { RequestLatency } from "./request-latency";

/** What one queued call ended with. */
export type Outcome<R> =
  | { readonly ok: true; readonly value: R }
  | { readonly ok: false; readonly error: unknown };

/** How long a free lane holds its calls for others to join; see the file comment for why. */
export interface HoldPolicy {
  /**
   * What one request costs the server now, in ms (e.g. a {@link RequestLatency}), used until the
   * lane has measured its own requests; `undefined` before anything was measured.
   */
  readonly requestMs: () => number | undefined;
  /**
   * True when no further call can arrive before one of the calls under way is answered: every
   * caller there can be is waiting on us. The lane then sends without waiting out the hold.
   */
  readonly nothingMoreCanCome?: (() => boolean) | undefined;
  /** The longest hold in ms, however slow requests are. Default {@link MAX_HOLD_MS}. */
  readonly maxMs?: number | undefined;
}

/** The longest a lane holds calls by default: past this, latency matters more than a request saved. */
export const MAX_HOLD_MS = 2_000;

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
  /** Hold calls in a free lane while more are coming (see {@link HoldPolicy}); replaces `windowMs`. */
  readonly hold?: HoldPolicy | undefined;
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
  /** With a hold policy, while the lane is free and holds calls: since when, and the timer that ends it. */
  hold: { readonly since: number; cancel: (() => void) | undefined; ticked: boolean } | undefined;
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
  readonly #hold: HoldPolicy | undefined;
  /** What this coalescer's own requests take (they may cost more than the server's average). */
  readonly #latency = new RequestLatency();
  readonly #lanes = new Map<string, Lane<I, R>>();

  constructor(options: CoalescerOptions<I, R>) {
    this.#run = options.run;
    this.#maxBatchSize = options.maxBatchSize ?? 100;
    this.#windowMs = options.windowMs ?? 0;
    this.#hold = options.hold;
  }

  /** Queues `item` on `lane`; resolves with its own outcome. */
  submit(lane: string, item: I): Promise<R> {
    this.stats.calls += 1;
    let state = this.#lanes.get(lane);
    if (state === undefined) {
      state = { queue: [], inFlight: 0, scheduled: false, hold: undefined };
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
    if (this.#hold !== undefined) {
      if (state.inFlight === 0) this.#considerHold(lane, state, this.#hold);
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

  /** How long a free lane may hold its calls now, in ms. */
  #holdLimitMs(hold: HoldPolicy): number {
    const cost = this.#latency.ms ?? hold.requestMs() ?? 0;
    return Math.min(hold.maxMs ?? MAX_HOLD_MS, cost);
  }

  /**
   * Sends the queue of a free lane when the hold is over (see {@link HoldPolicy}), else makes sure
   * a timer looks again when it will be. A hold always lasts into the next turn of the event loop,
   * so calls made together are sent together even before any request was measured.
   */
  #considerHold(lane: string, state: Lane<I, R>, hold: HoldPolicy): void {
    if (state.queue.length === 0) {
      this.#endHold(state);
      this.#lanes.delete(lane);
      return;
    }
    const now = performance.now();
    state.hold ??= { since: now, cancel: undefined, ticked: false };
    const current = state.hold;
    const due = current.since + this.#holdLimitMs(hold);
    const over = current.ticked && due <= now;
    if (over || state.queue.length >= this.#maxBatchSize || hold.nothingMoreCanCome?.() === true) {
      this.#flush(lane, state);
      return;
    }
    if (current.cancel !== undefined) return;
    const look = () => {
      current.cancel = undefined;
      current.ticked = true;
      if (state.hold === current && state.inFlight === 0) this.#considerHold(lane, state, hold);
    };
    const wait = due - now;
    if (wait > 0) {
      const timer = setTimeout(look, wait);
      current.cancel = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(look);
      current.cancel = () => clearImmediate(immediate);
    }
  }

  /**
   * The callers of an answered batch come back with their next calls now: a new hold starts. It is
   * first looked at on the next turn of the event loop, once those callers have finished the calls
   * the answer ended; until then they still count as under way, and the queued calls would look
   * like everything that can come (a real xCAT showed it: 8 steps split into PUTs of 6 and 2
   * taking turns).
   */
  #holdAfterAnswer(lane: string, state: Lane<I, R>, hold: HoldPolicy): void {
    const current = {
      since: performance.now(),
      cancel: undefined as (() => void) | undefined,
      ticked: false,
    };
    state.hold = current;
    const immediate = setImmediate(() => {
      current.cancel = undefined;
      current.ticked = true;
      if (state.hold === current && state.inFlight === 0) this.#considerHold(lane, state, hold);
    });
    current.cancel = () => clearImmediate(immediate);
  }

  #endHold(state: Lane<I, R>): void {
    state.hold?.cancel?.();
    state.hold = undefined;
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
    this.#endHold(state);
    const sent = performance.now();
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
          this.#latency.record(performance.now() - sent);
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
        else if (this.#hold !== undefined && state.inFlight === 0)
          this.#holdAfterAnswer(lane, state, this.#hold);
        else this.#schedule(lane, state);
      });
  }
}
