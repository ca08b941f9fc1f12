/**
 * What a resource type is, declared once: how its inputs are validated, what its id is, which
 * changes replace it, and how it is created, read, updated and deleted through the client.
 * `make-provider.ts` turns a spec into a Pulumi dynamic provider; the spec itself knows nothing of
 * Pulumi's dynamic-provider shell, so it could move to a native provider unchanged.
 */
import type { XcatClient } from "../client";
import type { ConnectionInput } from "./config";
import type { InputFailure } from "./validation";

/** Inputs every resource accepts besides its own. */
export interface CommonInputs {
  /** Connect to this management node instead of the provider configuration's. */
  readonly connection?: ConnectionInput;
}

/** What a successful check yields: the normalized inputs. */
export type CheckOutcome<Inputs> =
  | { readonly inputs: Inputs }
  | { readonly failures: readonly InputFailure[] };

/** A read that found the object: its outputs, and its managed values as inputs (for drift). */
export interface ReadOutcome<Inputs, Outputs> {
  readonly id: string;
  readonly outputs: Outputs;
  readonly inputs: Inputs;
}

/**
 * What the provider shell passes to an operation besides its inputs: `signal` is aborted when
 * the engine asks to cancel (Ctrl-C or SIGTERM to pulumi), for operations that run in steps
 * (a Deployment's batches) and can stop between them.
 */
export interface OperationContext {
  readonly signal?: AbortSignal;
  /**
   * Epoch milliseconds by which the operation must end (a native provider's `customTimeouts`);
   * absent under the dynamic-provider host, which drops the engine's timeout.
   */
  readonly deadline?: number;
  /**
   * A create that replaces a resource of the state (replacements.ts): an object already on the
   * server is not taken over without `adopt`, since the replaced resource's delete may follow.
   */
  readonly replacing?: boolean;
}

/**
 * `Client` is the backend's client: the xCAT client by default, the Confluent client for the
 * Confluent backend's specs (provider/confluent/); make-provider.ts gets it through a
 * {@link BackendAccess}.
 */
export interface ResourceSpec<
  Inputs extends CommonInputs,
  Outputs extends CommonInputs,
  Client = XcatClient,
> {
  /** The dynamic resource type, e.g. "xcat:Node" (shown by Pulumi as pulumi-nodejs:dynamic/xcat:Node). */
  readonly kind: string;
  /** Validates and normalizes raw inputs; pure (no I/O), accepts unknown values during preview. */
  check(news: Readonly<Record<string, unknown>>): CheckOutcome<Inputs>;
  /** Input properties whose change means a new object (the old one is deleted first). */
  replaceKeys(olds: Outputs, news: Inputs): string[];
  /** Whether anything the resource manages differs between the recorded outputs and new inputs. */
  hasChanges(olds: Outputs, news: Inputs): boolean;
  create(
    client: Client,
    inputs: Inputs,
    context?: OperationContext,
  ): Promise<{ id: string; outputs: Outputs }>;
  /**
   * Problems with checked inputs that only the management node can show (an image that does not
   * exist, an attribute its xCAT release does not know), found with reads alone, as check
   * failures: preview fails on them, naming resource and field. Run in check after the connection
   * check, skipped without one.
   */
  serverProblems?(client: Client, inputs: Inputs): Promise<InputFailure[]>;
  /**
   * For a resource that will adopt an existing object: what its create will change there
   * (attribute → "current → new", secrets as [secret]); `undefined` when it adopts nothing (no
   * `adopt`, or no such object). Reads only; shown in preview as the `adoptChanges` input.
   */
  adoptChanges?(client: Client, inputs: Inputs): Promise<Record<string, string> | undefined>;
  /**
   * Says on the provider's output what a create (`olds` undefined) or update will do beyond the
   * object itself (a node's hosts, DNS and DHCP entries), so that plain `pulumi preview` lists it.
   * Reads only; run in check after the connection check, skipped without one.
   */
  announceSideEffects?(client: Client, olds: Inputs | undefined, inputs: Inputs): Promise<void>;
  /**
   * Reads the object; `undefined` when it is gone. `olds` are the recorded outputs (refresh) or,
   * for `Resource.get`, only what the caller passed, so specs must not assume their fields.
   */
  read(client: Client, id: string, olds: Partial<Outputs>): Promise<ReadOutcome<Inputs, Outputs> | undefined>;
  update(
    client: Client,
    id: string,
    olds: Outputs,
    news: Inputs,
    context?: OperationContext,
  ): Promise<Outputs>;
  /** Deletes the object; succeeds when it is already gone. */
  delete(client: Client, id: string, olds: Outputs, context?: OperationContext): Promise<void>;
}

/**
 * The advice of every "already exists with other values" conflict. Adopting is only right for an
 * object made outside the program: when another resource of the same program claims the object,
 * adopting makes both manage it, and deleting either deletes it.
 */
export const ADOPT_ADVICE =
  "First check that no other resource of this program claims the same object (then remove one of " +
  "them instead). If it was made outside the program, set adopt: true to take it under management " +
  "and make it match the program";

/** Raised when the program asks for something the server state does not allow (e.g. adopt needed). */
export class ResourceConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ResourceConflictError";
  }
}

/**
 * Raised by create or update when the object exists but did not fully reach the wanted state
 * (some nodes of a deployment failed): Pulumi records `outputs` under `id` and fails the
 * resource with the message, so the next `up` continues from there (pulumi-notes.md 1.4,
 * `grpcResponseFromError` / ErrorResourceInitFailed).
 */
export class PartialFailureError<Outputs = unknown> extends Error {
  readonly id: string;
  readonly outputs: Outputs;

  constructor(message: string, id: string, outputs: Outputs) {
    super(message);
    this.name = "PartialFailureError";
    this.id = id;
    this.outputs = outputs;
  }
}
