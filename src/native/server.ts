/**
 * Pulumi's ResourceProvider gRPC service for the native provider `pulumi-resource-xcat`, served
 * with the stubs @pulumi/pulumi ships (proto/provider_grpc_pb). Every resource operation goes to
 * the same core as the dynamic resources (src/provider/runtime.ts: the specs' validation,
 * batching, merging and errors); this layer only translates the protocol:
 * - Configure: the stack's or an explicit provider's `xcat:*` settings become the process's
 *   settings (one process serves one provider, so one management node), and the provider's URN
 *   says which, for how messages name a setting (setting-advice.ts);
 * - the core's lines go to the engine's Log service under the URN of the call they belong to,
 *   and are delivered before the call answers (engine-log.ts);
 * - Check: a native program's inputs shaped as the TypeScript classes shape them (kinds.ts);
 * - secrets unwrapped on the way in and wrapped again on the way out (wire.ts);
 * - Create/Update/Delete: the engine's `timeout` (customTimeouts) becomes the operation's
 *   deadline, and Cancel aborts the operations in flight (operation-scope.ts);
 * - Read without properties (`pulumi import`) reads the object by its id and returns its inputs,
 *   its passwords left on the server (id-only-read.ts).
 *
 * Why not `provider.main` of @pulumi/pulumi: at 3.259.0 it drops Configure's payload, the
 * timeout and Cancel's meaning, and crashes on an import's Read (docs/native-provider.md).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type * as grpc from "@grpc/grpc-js";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { rollsEnded, rollsInFlight } from "../provider/cancel-grace";
import { ProviderConfigError, settingsFrom } from "../provider/config";
import { engineCallers } from "../provider/engine-callers";
import { withOperationScope } from "../provider/operation-scope";
import {
  cancelProcessRequests,
  configureProcess,
  processRequestsCancelled,
  processSettings,
} from "../provider/process-settings";
import { originOfProvider } from "../provider/setting-advice";
import type { EngineOperation } from "./cancelled";
import { diffConfig } from "./diff-config";
import { linesDelivered, speakingFor } from "./engine-log";
import { isIdOnlyRead, nothingToImport, withoutPasswords } from "./id-only-read";
import { coreKind, parseUrn, secretKeysOf, shapeInputs } from "./kinds";
import type * as ResourceCore from "./resource-core";
import { decode, encode, type Properties, topLevelKeys } from "./wire";
import type { ProgramResource } from "./yaml-program-check";

// status_pb ships without type declarations.
const statusproto = require("@pulumi/pulumi/proto/status_pb") as {
  Status: new () => {
    setCode(code: number): void;
    setMessage(message: string): void;
    addDetails(details: Any): void;
    serializeBinary(): Uint8Array;
  };
};

const packageRoot = resolve(__dirname, "..", "..");
const { version } = JSON.parse(readFileSync(resolve(packageRoot, "package.json"), "utf8")) as {
  version: string;
};

let resourceCore: typeof ResourceCore | undefined;
/**
 * The provider core, loaded on the first resource operation rather than at start. The engine
 * starts a provider process per provider per command (an explicit provider is a process of its
 * own), and many of them only answer GetPluginInfo, GetSchema, CheckConfig, DiffConfig and
 * Configure, or nothing at all; loading the core (the clients' undici and tls, zod's schemas,
 * every kind's spec, js-yaml) up front cost about half the CPU of starting the process
 * (docs/e2e-time.md, "The native provider's start").
 */
async function loadResourceCore(): Promise<typeof ResourceCore> {
  resourceCore ??= await import("./resource-core.js");
  return resourceCore;
}

/** The YAML program in the provider's working directory (the project's), read once per process. */
let programResources: ProgramResource[] | undefined | null = null;

/**
 * The other resources of the YAML program that their kind's check refuses (yaml-program-check.ts),
 * the default provider's checked for the stack's backend: this process's own when it is the
 * default provider, else as the stack config in the project's files gives it.
 */
function othersInvalid(core: typeof ResourceCore, type: string, name: string, urn: string) {
  if (programResources === null) programResources = core.yamlProgramResources(process.cwd());
  if (programResources === undefined) return [];
  const settings = processSettings();
  const stack =
    settings.origin.explicitProvider !== undefined
      ? core.stackProviderOf(process.cwd(), core.stackOfUrn(urn))
      : { backend: settings.connection?.backend ?? "xcat", confluentOmit: settings.confluentOmit };
  return core.invalidResources(programResources, { type, name }, { stack });
}
/** The package schema written at build time (scripts/generate-native-schema.mjs). */
export function schemaText(): string {
  // From the package root, so that the sources (tests) read the built file too.
  return readFileSync(resolve(packageRoot, "dist", "native", "schema.json"), "utf8");
}

/** The `xcat:url` style lookup over Configure's variables (`xcat:config:url`). */
function lookupIn(variables: ReadonlyMap<string, string> | Map<string, string>) {
  return (key: string) => variables.get(key.replace(/^xcat:/, "xcat:config:"));
}

/** The controllers of operations in flight; Cancel aborts them all. */
const inFlight = new Set<AbortController>();
/** Runs an engine operation, reporting its failure after a Cancel as a cancelled operation. */
async function reportingCancel<T>(
  operation: EngineOperation,
  urn: string,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // After a Cancel that found work under way, every failure is the cancel's doing.
    if (!processRequestsCancelled()) throw error;
    const { type, name } = parseUrn(urn);
    throw (await loadResourceCore()).cancelledOperation(error, operation, type, name);
  }
}

/** Runs an operation under a cancel signal and the engine's deadline (seconds; 0: none). */
async function scoped<T>(timeoutSeconds: number, operation: () => Promise<T>): Promise<T> {
  const controller = new AbortController();
  inFlight.add(controller);
  try {
    return await withOperationScope(
      {
        signal: controller.signal,
        ...(timeoutSeconds > 0 ? { deadline: Date.now() + timeoutSeconds * 1000 } : {}),
      },
      operation,
    );
  } finally {
    inFlight.delete(controller);
  }
}

type Callback = (error: grpc.ServiceError | null, response?: unknown) => void;
type Handler = (call: { request: never }, callback: Callback) => void;

/** The error as the engine takes it: a partial failure (an id) keeps the object in the state. */
function grpcError(error: unknown, kind: string | undefined): Partial<grpc.ServiceError> {
  const UNKNOWN = 2;
  if (!(error instanceof Error)) return { code: UNKNOWN, details: String(error), message: String(error) };
  // The engine prints the message; like the dynamic-provider host for create and update, the
  // stack trace is left out (a condition's message says all there is). XCAT_LOG_LEVEL=debug
  // prints it on the provider's stderr, for bugs.
  if (process.env.XCAT_LOG_LEVEL === "debug" && error.stack) process.stderr.write(`${error.stack}\n`);
  const text = error.message;
  const partial = error as Error & { id?: string; properties?: Properties; reasons?: string[] };
  if (!partial.id) return { code: UNKNOWN, details: text, message: text };
  const { Metadata } = require("@grpc/grpc-js") as typeof grpc;
  const detail = new provproto.ErrorResourceInitFailed();
  detail.setId(partial.id);
  const properties = partial.properties ?? {};
  detail.setProperties(encode(properties, secretKeysOf(kind ?? "", properties)));
  detail.setReasonsList(partial.reasons ?? [error.message]);
  const details = new Any();
  details.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusproto.Status();
  status.setCode(UNKNOWN);
  status.setMessage(error.message);
  status.addDetails(details);
  const metadata = new Metadata();
  metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  return { code: UNKNOWN, details: error.message, message: error.message, metadata };
}

/** The URN a request is about (a resource's, or Configure's provider's); "" when it has none. */
function urnOf(request: unknown): string {
  const getUrn = (request as { getUrn?: () => string | undefined }).getUrn;
  return typeof getUrn === "function" ? (getUrn.call(request) ?? "") : "";
}

/**
 * A unary handler that answers with `run`'s result or its error, once the lines said while it
 * ran have reached the engine, under the request's URN.
 */
function unary<Request>(
  run: (request: Request) => Promise<unknown>,
  kindOf?: (request: Request) => string,
): Handler {
  return (call, callback) => {
    const request = call.request as Request;
    const urn = urnOf(request);
    const answer = async () => {
      try {
        return await run(request);
      } finally {
        await linesDelivered(urn);
      }
    };
    speakingFor(urn, answer).then(
      (response) => callback(null, response),
      (error: unknown) => {
        let kind: string | undefined;
        try {
          kind = kindOf?.(request);
        } catch {
          kind = undefined;
        }
        callback(grpcError(error, kind) as grpc.ServiceError);
      },
    );
  };
}

const kindOfUrn = (request: { getUrn(): string }) => coreKind(parseUrn(request.getUrn()).type);

/** Outputs with their secret keys wrapped: the kind's own, and those whose inputs were secret. */
function encodeOutputs(
  kind: string,
  outputs: Properties,
  inputSecrets: ReadonlySet<string>,
): ReturnType<typeof encode> {
  return encode(outputs, new Set([...inputSecrets, ...secretKeysOf(kind, outputs)]));
}

/** The handlers of the ResourceProvider service. */
export const resourceProviderHandlers: Record<string, Handler> = {
  getPluginInfo: unary(async () => new plugproto.PluginInfo().setVersion(version)),

  getSchema: unary(async () => new provproto.GetSchemaResponse().setSchema(schemaText())),

  checkConfig: unary(async (request: provproto.CheckRequest) => {
    const { values } = decode(request.getNews());
    const response = new provproto.CheckResponse().setInputs(request.getNews());
    const plain = new Map<string, string>();
    for (const [key, value] of Object.entries(values)) {
      // As the engine sends them to Configure: strings as they are, other values JSON-encoded
      // (provider_plugin.go:1068-1080 at v3.259.0), e.g. a confluentOmit list.
      if (value !== undefined && value !== null)
        plain.set(`xcat:config:${key}`, typeof value === "string" ? value : JSON.stringify(value));
    }
    try {
      settingsFrom(lookupIn(plain), {}, originOfProvider(request.getUrn()));
    } catch (error) {
      if (!(error instanceof ProviderConfigError)) throw error;
      response.setFailuresList([new provproto.CheckFailure().setProperty("").setReason(error.message)]);
    }
    return response;
  }),

  // Whether changed provider settings move resources to another server (diff-config.ts).
  diffConfig: unary(async (request: provproto.DiffRequest) => diffConfig(request)),

  configure: unary(async (request: provproto.ConfigureRequest) => {
    const variables = new Map(request.getVariablesMap().toArray());
    configureProcess(lookupIn(variables), originOfProvider(request.getUrn()));
    return new provproto.ConfigureResponse()
      .setAcceptsecrets(true)
      .setSupportspreview(false)
      .setAcceptresources(false)
      .setAcceptoutputs(false);
  }),

  check: unary(async (request: provproto.CheckRequest) => {
    const { type, name } = parseUrn(request.getUrn());
    const kind = coreKind(type);
    const olds = decode(request.getOlds()).values;
    const news = decode(request.getNews());
    const { inputs, secretKeys } = shapeInputs(kind, name, news.values, news.secretPaths);
    const core = await loadResourceCore();
    const result = await core.runtime.check(kind, olds, inputs);
    const response = new provproto.CheckResponse();
    if (result.failures && result.failures.length > 0) {
      // The engine stops at this resource: name the program's other invalid ones too.
      const failures = [
        ...result.failures,
        ...core.otherResourceFailures(othersInvalid(core, type, name, request.getUrn())),
      ];
      return response.setFailuresList(
        failures.map((failure) =>
          new provproto.CheckFailure().setProperty(failure.property).setReason(failure.reason),
        ),
      );
    }
    const checked = (result.inputs ?? inputs) as Properties;
    return response.setInputs(encodeOutputs(kind, checked, secretKeys));
  }, kindOfUrn),

  diff: unary(async (request: provproto.DiffRequest) => {
    const kind = kindOfUrn(request);
    const olds = decode(request.getOlds()).values;
    const news = decode(request.getNews()).values;
    const { runtime } = await loadResourceCore();
    const result = await runtime.diff(kind, request.getId(), olds, news);
    const { DiffChanges } = provproto.DiffResponse;
    return new provproto.DiffResponse()
      .setChanges(result.changes ? DiffChanges.DIFF_SOME : DiffChanges.DIFF_NONE)
      .setReplacesList(result.replaces ?? [])
      .setDeletebeforereplace(result.deleteBeforeReplace ?? false);
  }, kindOfUrn),

  create: unary(async (request: provproto.CreateRequest) => {
    const kind = kindOfUrn(request);
    const { runtime } = await loadResourceCore();
    const inputs = decode(request.getProperties());
    const result = await reportingCancel("create", request.getUrn(), () =>
      scoped(request.getTimeout(), () => runtime.create(kind, inputs.values)),
    );
    return new provproto.CreateResponse()
      .setId(result.id)
      .setProperties(encodeOutputs(kind, result.outs ?? {}, topLevelKeys(inputs.secretPaths)));
  }, kindOfUrn),

  read: unary(async (request: provproto.ReadRequest) => {
    const kind = kindOfUrn(request);
    const { runtime } = await loadResourceCore();
    const props = decode(request.getProperties());
    const inputs = decode(request.getInputs());
    const result = await reportingCancel("read", request.getUrn(), () =>
      runtime.read(kind, request.getId(), props.values),
    );
    const response = new provproto.ReadResponse();
    const idOnly = isIdOnlyRead(props.values, inputs.values);
    if (!result.id && idOnly) {
      const { type, name } = parseUrn(request.getUrn());
      throw nothingToImport(type, name, request.getId());
    }
    // No id: the object is gone (refresh drops it, the next up creates it again).
    if (!result.id) return response;
    const secrets = new Set([...topLevelKeys(props.secretPaths), ...topLevelKeys(inputs.secretPaths)]);
    const shaped = (values: Properties) => (idOnly ? withoutPasswords(values) : values);
    response.setId(result.id).setProperties(encodeOutputs(kind, shaped(result.props ?? {}), secrets));
    if (result.inputs) response.setInputs(encodeOutputs(kind, shaped(result.inputs), secrets));
    return response;
  }, kindOfUrn),

  update: unary(async (request: provproto.UpdateRequest) => {
    const kind = kindOfUrn(request);
    const { runtime } = await loadResourceCore();
    const olds = decode(request.getOlds()).values;
    const news = decode(request.getNews());
    const result = await reportingCancel("update", request.getUrn(), () =>
      scoped(request.getTimeout(), () => runtime.update(kind, request.getId(), olds, news.values)),
    );
    return new provproto.UpdateResponse().setProperties(
      encodeOutputs(kind, result.outs ?? {}, topLevelKeys(news.secretPaths)),
    );
  }, kindOfUrn),

  delete: unary(async (request: provproto.DeleteRequest) => {
    const kind = kindOfUrn(request);
    const { runtime } = await loadResourceCore();
    const props = decode(request.getProperties()).values;
    await reportingCancel("delete", request.getUrn(), () =>
      scoped(request.getTimeout(), () => runtime.delete(kind, request.getId(), props)),
    );
    return new Empty();
  }, kindOfUrn),

  // Sent on Ctrl-C and also at the end of every run (the plugin host's Close, once every step
  // has ended): only a Cancel that finds the engine's calls under way cancels anything, so the
  // Cancel after a normal run does nothing. One that does aborts the operations in flight (a
  // Deployment starts no further batch) and the xCAT requests in flight, and refuses later ones:
  // the engine starts no new step after a Cancel and closes the provider once the steps end.
  // Deployment rolls in flight first watch their batches for their grace period (a node that
  // boots meanwhile is recorded as deployed), so the requests are cut off once those rolls end.
  cancel: unary(async () => {
    if (inFlight.size === 0 && engineCallers.inProgress() === 0) return new Empty();
    const reason = new Error("the Pulumi engine asked to cancel");
    for (const controller of inFlight) controller.abort(reason);
    inFlight.clear();
    if (rollsInFlight() === 0) cancelProcessRequests(reason);
    else void rollsEnded().then(() => cancelProcessRequests(reason));
    return new Empty();
  }),
};
