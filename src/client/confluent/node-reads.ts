/**
 * Merges the node reads that arrive together (a refresh reads every node at once) into one
 * noderange request, `GET /noderange/<n1,n2,…>/attributes/current`, as the xCAT client batches
 * its reads. Confluent fails a noderange read whole when one name is not a node (404 "Invalid
 * Noderange", real-confluent.md item 12), so such a batch is read again node by node, and each
 * caller gets its own answer or its own not-found.
 */
import { isNotFound } from "../errors";
import type { ReportedAttribute } from "./bodies";

export type NodeAttributes = Map<string, ReportedAttribute>;

export interface NodeReadSource {
  /** One node; rejects with a not-found error when it does not exist. */
  one(name: string): Promise<NodeAttributes>;
  /** Several nodes in one request; rejects whole when one of them does not exist. */
  many(names: readonly string[]): Promise<Map<string, NodeAttributes>>;
}

/** Names per request: a noderange is part of the URL path, which servers bound. */
const MAX_NAMES = 200;

export class NodeReadBatcher {
  readonly #source: NodeReadSource;
  readonly #enabled: boolean;
  #queued = new Map<
    string,
    Array<{ resolve: (value: NodeAttributes) => void; reject: (error: unknown) => void }>
  >();
  #scheduled = false;

  constructor(source: NodeReadSource, enabled: boolean) {
    this.#source = source;
    this.#enabled = enabled;
  }

  read(name: string): Promise<NodeAttributes> {
    if (!this.#enabled) return this.#source.one(name);
    return new Promise((resolve, reject) => {
      const waiting = this.#queued.get(name) ?? [];
      waiting.push({ resolve, reject });
      this.#queued.set(name, waiting);
      if (!this.#scheduled) {
        this.#scheduled = true;
        // The engine sends the reads of a refresh within a few milliseconds of each other.
        setTimeout(() => this.#flush(), 5);
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    const queued = this.#queued;
    this.#queued = new Map();
    const names = [...queued.keys()];
    for (let start = 0; start < names.length; start += MAX_NAMES) {
      void this.#readBatch(names.slice(start, start + MAX_NAMES), queued);
    }
  }

  async #readBatch(
    names: readonly string[],
    queued: Map<
      string,
      Array<{ resolve: (value: NodeAttributes) => void; reject: (error: unknown) => void }>
    >,
  ): Promise<void> {
    const settle = (name: string, outcome: { value: NodeAttributes } | { error: unknown }) => {
      for (const waiter of queued.get(name) ?? []) {
        if ("value" in outcome) waiter.resolve(outcome.value);
        else waiter.reject(outcome.error);
      }
    };
    const singly = async () => {
      await Promise.all(
        names.map(async (name) => {
          try {
            settle(name, { value: await this.#source.one(name) });
          } catch (error) {
            settle(name, { error });
          }
        }),
      );
    };
    if (names.length === 1) return singly();
    try {
      const found = await this.#source.many(names);
      const missing = names.filter((name) => !found.has(name));
      for (const [name, value] of found) settle(name, { value });
      // Not in a successful answer: read alone, which gives the not-found error.
      if (missing.length > 0)
        await Promise.all(
          missing.map(async (name) =>
            this.#source.one(name).then(
              (value) => settle(name, { value }),
              (error: unknown) => settle(name, { error }),
            ),
          ),
        );
    } catch (error) {
      if (!isNotFound(error)) {
        for (const name of names) settle(name, { error });
        return;
      }
      await singly();
    }
  }
}
