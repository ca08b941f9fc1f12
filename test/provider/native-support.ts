/**
 * Calling the native provider's gRPC handlers (src/native/server.ts) in process, as grpc-js
 * calls them, with the protocol's own request messages.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { resourceProviderHandlers } from "../../src/native/server";
import { encode } from "../../src/native/wire";
import { resetProcessContext } from "../../src/provider/process-context";

/** The URN of a resource of the native type `xcat:index:<type>`. */
export const nativeUrn = (type: string, name: string) => `urn:pulumi:test::lab::xcat:index:${type}::${name}`;

/** Calls a handler as grpc-js would and resolves with its response or rejects with its error. */
export function callHandler<Response>(method: string, request: unknown): Promise<Response> {
  return new Promise((resolvePromise, reject) => {
    const handler = resourceProviderHandlers[method];
    if (!handler) throw new Error(`no handler ${method}`);
    handler({ request: request as never }, (error, response) =>
      error ? reject(error) : resolvePromise(response as Response),
    );
  });
}

/** Plain values as a protobuf Struct, nothing secret. */
export const struct = (values: Record<string, unknown>): Struct => encode(values, new Set());

/** A fresh process context configured as the engine's Configure does, from `xcat:<key>` settings. */
export async function configureNative(
  settings: Record<string, string>,
): Promise<provproto.ConfigureResponse> {
  await resetProcessContext();
  const request = new provproto.ConfigureRequest().setAcceptsecrets(true);
  const variables = request.getVariablesMap();
  for (const [key, value] of Object.entries(settings)) variables.set(`xcat:config:${key}`, value);
  return callHandler<provproto.ConfigureResponse>("configure", request);
}
