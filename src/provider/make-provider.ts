/**
 * The one generic implementation of Pulumi's dynamic-provider interface, built from a
 * {@link ResourceSpec}: check and diff are pure, create/read/update/delete go through the client
 * of the resource's connection. Every resource kind is this plus its spec.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { XcatClient } from "../client";
import { isTlsError } from "../client/errors";
import type { ConnectionInput } from "./config";
import { countedEngineCall } from "./engine-callers";
import { whileCancellable } from "./engine-cancel";
import { operationContext } from "./operation-scope";
import { notePlanned } from "./planned-objects";
import { type BackendAccess, configureProcess, processSettings, xcatAccess } from "./process-context";
import { isReplacement, noteCheckedAsExisting } from "./replacements";
import { withoutSecretValue } from "./secret-failures";
import { movedBy, serverOfConnection } from "./server-identity";
import { settingName } from "./setting-advice";
import { type CommonInputs, PartialFailureError, type ResourceSpec } from "./spec";
import { connectionServerRecord, SERVER_OUTPUT, stackServerMismatch } from "./stack-server";
import { isUnknown } from "./validation";

/** Keys the dynamic-provider host adds to inputs and outputs (the serialized provider). */
const isHostKey = (key: string) => key.startsWith("__");

function withoutHostKeys(value: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (typeof value !== "object" || value === null) return result;
  for (const [key, entry] of Object.entries(value)) {
    if (!isHostKey(key)) result[key] = entry;
  }
  return result;
}

/** Whether a value holds a preview's placeholder for a value known only after apply. */
function hasUnknown(value: unknown): boolean {
  if (isUnknown(value)) return true;
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(hasUnknown);
}

function connectionOf(value: unknown): ConnectionInput | undefined {
  const connection = (value as { connection?: ConnectionInput } | undefined)?.connection;
  return connection ?? undefined;
}

/** The server a resource's inputs name, as a key: its connection's, else the stack's. */
function serverKey(inputs: unknown): string {
  return JSON.stringify(serverOfConnection(connectionOf(inputs), processSettings().connection));
}

/** The resource's name for messages: its `name` input, else its id. */
function nameOf(values: unknown, id: string): string {
  const name = (values as { name?: unknown } | undefined)?.name;
  return typeof name === "string" ? name : id;
}

/**
 * Outputs with the record of the server the resource was written on (stack-server.ts): without a
 * `connection` of its own, the stack's, which diff, read and delete compare the stack's settings
 * with later; with one, the connection's. The classes pass a whole `connection` as a secret (its
 * password is in it), so the record, backend and URL only, is how review, drift and pins tell
 * which management node a resource with a `connection` is on (src/cli/stack-resources.ts).
 */
function withServerRecord(outputs: unknown, inputs: unknown): Record<string, unknown> {
  const result = { ...(outputs as Record<string, unknown>) };
  const record = connectionServerRecord(connectionOf(inputs), processSettings().connection);
  if (record !== undefined) result[SERVER_OUTPUT] = record;
  return result;
}

/** Throws the refusal of stack-server.ts when the stack's settings now name another server. */
function refuseOnAnotherServer(kind: string, id: string, olds: unknown, operation: string): void {
  const refusal = stackServerMismatch(kind, nameOf(olds, id), olds, processSettings().connection, operation);
  if (refusal !== undefined) throw new Error(refusal);
}

/**
 * The client's TLS hint speaks of its `caCert` and `insecure` options; a Pulumi user sets them
 * as stack config or in a resource's `connection`, so say that too.
 */
function withPulumiHint(error: unknown): unknown {
  if (isTlsError(error) && !error.message.includes("or set caCert in the resource's connection")) {
    Object.defineProperty(error, "message", {
      value: `${error.message} ${tlsAdvice()}`,
      configurable: true,
      writable: true,
    });
  }
  return error;
}

/** Where a Pulumi user gives the CA certificate, for the resource's provider. */
function tlsAdvice(): string {
  const { origin } = processSettings();
  if (origin.explicitProvider === undefined)
    return (
      "In a Pulumi stack: pulumi config set xcat:caCert <PEM file or text> (or xcat:insecure true), " +
      "or set caCert in the resource's connection."
    );
  return (
    `Set ${settingName("caCert", origin)} to the PEM file or text (or its insecure input to true), ` +
    "or set caCert in the resource's connection."
  );
}

/** Runs a provider operation that talks to xCAT, phrasing its errors for Pulumi users. */
async function talking<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw withPulumiHint(error);
  }
}

/**
 * A create or update that left the object half done: the dynamic-provider host turns an error
 * with `id` and `properties` into ErrorResourceInitFailed, and the engine records those
 * properties. The host adds its own keys (`__provider`) only to successful results, so they are
 * carried over here, or the next refresh or destroy could not find the provider.
 */
async function recordingPartialState<T>(hostInputs: unknown, operation: () => Promise<T>): Promise<T> {
  try {
    return await talking(operation);
  } catch (error) {
    if (!(error instanceof PartialFailureError)) throw error;
    const hostKeys: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(hostInputs as Record<string, unknown>)) {
      if (isHostKey(key)) hostKeys[key] = value;
    }
    throw Object.assign(new Error(error.message), {
      id: error.id,
      properties: { ...hostKeys, ...(error.outputs as Record<string, unknown>) },
      reasons: [error.message],
    });
  }
}

/**
 * The dynamic provider implementation of a spec.
 *
 * @example
 * const implementation = makeProvider(nodeSpec); // registered in runtime.ts under "xcat:Node"
 */
export function makeProvider<Inputs extends CommonInputs, Outputs extends CommonInputs>(
  spec: ResourceSpec<Inputs, Outputs, XcatClient>,
): pulumi.dynamic.ResourceProvider;
/** The same for another backend's spec, with that backend's clients (provider/confluent/). */
export function makeProvider<Inputs extends CommonInputs, Outputs extends CommonInputs, Client>(
  spec: ResourceSpec<Inputs, Outputs, Client>,
  access: BackendAccess<Client>,
): pulumi.dynamic.ResourceProvider;
export function makeProvider<Inputs extends CommonInputs, Outputs extends CommonInputs, Client>(
  spec: ResourceSpec<Inputs, Outputs, Client>,
  access?: BackendAccess<Client>,
): pulumi.dynamic.ResourceProvider {
  const { clientFor, checkConnectionOnce } = access ?? (xcatAccess as unknown as BackendAccess<Client>);
  return {
    async configure(req) {
      configureProcess((key) => req.config.get(key));
    },

    // The engine calls check in preview and up, never in refresh or destroy: the place to prove
    // the connection before anything is planned on it.
    //
    // A new resource that adopts an existing object shows what adopting changes there as the
    // extra input `adoptChanges`, which preview prints under the create (also in --json). It is
    // not an input the resource manages: diff ignores it, so it never shows as a change later.
    async check(olds, news) {
      const inputs = withoutHostKeys(news);
      const outcome = spec.check(inputs);
      if ("failures" in outcome)
        return { failures: outcome.failures.map((failure) => withoutSecretValue(failure, inputs)) };
      const name = (outcome.inputs as { name?: unknown }).name;
      if (typeof name === "string") notePlanned(spec.kind, name, outcome.inputs as Record<string, unknown>);
      if (typeof name === "string" && Object.keys(withoutHostKeys(olds)).length > 0)
        noteCheckedAsExisting(spec.kind, name, serverKey(outcome.inputs));
      const connection = connectionOf(outcome.inputs);
      if (hasUnknown(connection)) return { inputs: outcome.inputs };
      await talking(() => checkConnectionOnce(connection));
      // Without a connection check the preview runs without a connection: no reads either.
      if (spec.serverProblems && processSettings().checkConnection) {
        const client = clientFor(connection);
        const problems = await talking(async () => spec.serverProblems?.(client, outcome.inputs) ?? []);
        if (problems.length > 0)
          return { failures: problems.map((failure) => withoutSecretValue(failure, inputs)) };
      }
      const isNew = Object.keys(withoutHostKeys(olds)).length === 0;
      if (spec.announceSideEffects && processSettings().checkConnection) {
        const previous = isNew ? undefined : (withoutHostKeys(olds) as unknown as Inputs);
        await talking(async () =>
          spec.announceSideEffects?.(clientFor(connection), previous, outcome.inputs),
        );
      }
      const adoptChanges =
        isNew && spec.adoptChanges
          ? await talking(async () => spec.adoptChanges?.(clientFor(connection), outcome.inputs))
          : undefined;
      return { inputs: adoptChanges ? { ...outcome.inputs, adoptChanges } : outcome.inputs };
    },

    async diff(_id, olds, news) {
      const previous = withoutHostKeys(olds) as unknown as Outputs;
      const next = withoutHostKeys(news) as unknown as Inputs;
      refuseOnAnotherServer(spec.kind, _id, previous, "preview or update");
      const stack = processSettings().connection;
      // A connection naming another server moves the object there (server-identity.ts); one
      // that changes only the account or transport is an update.
      const moves =
        movedBy(serverOfConnection(previous.connection, stack), serverOfConnection(next.connection, stack))
          .length > 0;
      const replaces = [...spec.replaceKeys(previous, next), ...(moves ? ["connection"] : [])];
      const connectionChanged =
        JSON.stringify(previous.connection ?? null) !== JSON.stringify(next.connection ?? null);
      return {
        changes: replaces.length > 0 || connectionChanged || spec.hasChanges(previous, next),
        replaces,
        // xCAT names are identities: a replacement on the same server must free the name before
        // creating it again. A move creates on the new server first, so that the old copy is
        // deleted only once the new one exists (a failed create leaves the old one as it was).
        deleteBeforeReplace: !moves,
      };
    },

    async create(inputs) {
      // adoptChanges was for the preview; the resource does not manage it.
      const { adoptChanges: _shownInPreview, ...rest } = withoutHostKeys(inputs);
      const checked = rest as unknown as Inputs;
      const name = (checked as { name?: unknown }).name;
      const replacing = typeof name === "string" && isReplacement(spec.kind, name, serverKey(checked));
      const { id, outputs } = await countedEngineCall(() =>
        recordingPartialState(inputs, () =>
          whileCancellable((signal) =>
            spec.create(clientFor(connectionOf(checked)), checked, {
              ...operationContext(signal),
              ...(replacing ? { replacing } : {}),
            }),
          ),
        ),
      );
      return { id, outs: withServerRecord(outputs, checked) };
    },

    async read(id, props) {
      const olds = withoutHostKeys(props) as Partial<Outputs>;
      refuseOnAnotherServer(spec.kind, id, olds, "refresh");
      const found = await countedEngineCall(() =>
        talking(() => spec.read(clientFor(connectionOf(olds)), id, olds)),
      );
      // No id tells the engine the object is gone: refresh drops it, the next up re-creates it.
      if (!found) return {};
      return { id: found.id, props: withServerRecord(found.outputs, olds), inputs: found.inputs };
    },

    async update(id, olds, news) {
      const previous = withoutHostKeys(olds) as unknown as Outputs;
      const next = withoutHostKeys(news) as unknown as Inputs;
      const outs = await countedEngineCall(() =>
        recordingPartialState(news, () =>
          whileCancellable((signal) =>
            spec.update(clientFor(connectionOf(next)), id, previous, next, operationContext(signal)),
          ),
        ),
      );
      return { outs: withServerRecord(outs, next) };
    },

    async delete(id, props) {
      const olds = withoutHostKeys(props) as unknown as Outputs;
      refuseOnAnotherServer(spec.kind, id, olds, "delete");
      await countedEngineCall(() =>
        talking(() =>
          whileCancellable((signal) =>
            spec.delete(clientFor(connectionOf(olds)), id, olds, operationContext(signal)),
          ),
        ),
      );
    },
  };
}
