/**
 * What a provider shell knows of the operation it runs, beyond its inputs: a signal it aborts
 * (its own cancel) and a deadline (the engine's `timeout`, from `customTimeouts`). A shell that
 * serves the gRPC service itself receives both in the request; the dynamic-provider host drops
 * them (pulumi-notes.md 1.4), so there the scope is simply absent.
 *
 * Carried in async context rather than through the provider's method signatures, which are
 * Pulumi's dynamic-provider interface (create(inputs), update(id, olds, news), delete(id, props)).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { OperationContext } from "./spec";

export interface OperationScope {
  /** Aborted when the shell is asked to cancel. */
  readonly signal?: AbortSignal;
  /** Epoch milliseconds by which the operation must end. */
  readonly deadline?: number;
}

const storage = new AsyncLocalStorage<OperationScope>();

/**
 * Runs `operation` within a scope that the operation contexts built inside it honor.
 *
 * @example
 * await withOperationScope({ signal, deadline: Date.now() + timeoutSeconds * 1000 }, () => create(kind, inputs));
 */
export function withOperationScope<T>(scope: OperationScope, operation: () => Promise<T>): Promise<T> {
  return storage.run(scope, operation);
}

/** The context given to a spec's operation: the caller's signal joined with the scope's, and its deadline. */
export function operationContext(signal: AbortSignal): OperationContext {
  const scope = storage.getStore();
  return {
    signal: scope?.signal ? AbortSignal.any([signal, scope.signal]) : signal,
    ...(scope?.deadline !== undefined ? { deadline: scope.deadline } : {}),
  };
}
