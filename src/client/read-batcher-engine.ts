/**
 * The engine the client uses: the plain {@link Engine} plus a {@link WriteLog} entry for every
 * call that may change something, and the batching settings the object namespaces read.
 */
import { routeById } from "../contract/routes";
import type { HoldPolicy } from "./coalescer";
import { type Answer, type CallSpec, Engine, type EngineParts } from "./engine";
import type { ReadBatcherTuning } from "./read-batcher";
import { WriteLog, writeScope } from "./read-batcher-writes";

/** Batching as the namespaces see it; `undefined` tuning means batching is off. */
export interface ReadBatching {
  readonly writes: WriteLog;
  readonly tuning: ReadBatcherTuning;
  readonly now: () => number;
  /** The client's base URL (`https://mn/xcatws`), for messages. */
  readonly baseUrl: string;
  /** How merged reads and writes hold their calls for others to join (see coalescer.ts). */
  readonly hold: HoldPolicy;
}

export class WriteTrackingEngine extends Engine {
  readonly writes: WriteLog;
  readonly batching: ReadBatching | undefined;

  constructor(
    parts: EngineParts,
    options: {
      tuning: ReadBatcherTuning | undefined;
      now: () => number;
      baseUrl: string;
      nothingMoreCanCome: (() => boolean) | undefined;
    },
  ) {
    super(parts);
    this.writes = new WriteLog(options.now);
    const hold: HoldPolicy = {
      requestMs: () => this.latency.ms,
      nothingMoreCanCome: options.nothingMoreCanCome,
    };
    this.batching =
      options.tuning === undefined
        ? undefined
        : { writes: this.writes, tuning: options.tuning, now: options.now, baseUrl: options.baseUrl, hold };
  }

  override async call(spec: CallSpec): Promise<Answer> {
    if (routeById(spec.route).method === "GET") return super.call(spec);
    try {
      return await super.call(spec);
    } finally {
      // Marked when the write has settled, failed or not: a failed write may still have landed.
      this.writes.record(writeScope(spec.route, spec.params));
    }
  }
}

/**
 * The batching settings of the client an engine belongs to; `undefined` when batching is off.
 *
 * @example
 * ```ts
 * const batching = readBatchingOf(engine);
 * ```
 */
export function readBatchingOf(engine: Engine): ReadBatching | undefined {
  return engine instanceof WriteTrackingEngine ? engine.batching : undefined;
}
