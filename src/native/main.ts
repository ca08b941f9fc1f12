#!/usr/bin/env node
/**
 * pulumi-resource-xcat: the native Pulumi provider for xCAT. The engine starts it (found on PATH,
 * installed with `pulumi plugin install resource xcat <version> --file <dir>`, or named by a
 * project's `plugins.providers[].path`), reads the port it prints, and calls the
 * ResourceProvider service on it (server.ts). Its argument is the engine's address, where the
 * provider's lines go (engine-log.ts).
 */
import * as grpc from "@grpc/grpc-js";
import { ResourceProviderService } from "@pulumi/pulumi/proto/provider_grpc_pb";
import { unsupportedNodeSentence } from "../supported-node";
import { engineAddressOf, sayLinesThroughEngine } from "./engine-log";
import { resourceProviderHandlers } from "./server";

async function main(): Promise<void> {
  // Before the engine gets a port: a plugin that cannot load its client must not start at all.
  const tooOld = unsupportedNodeSentence("pulumi-resource-xcat");
  if (tooOld !== undefined) {
    process.stderr.write(`${tooOld}\n`);
    process.exit(1);
  }
  // Started by hand (no engine), the lines stay on stderr.
  const engine = engineAddressOf(process.argv.slice(2));
  if (engine !== undefined) sayLinesThroughEngine(engine);
  const server = new grpc.Server({
    // The engine sends whole stacks' properties in one message (the SDK's own limit).
    "grpc.max_receive_message_length": 400 * 1024 * 1024,
  });
  server.addService(
    ResourceProviderService as unknown as grpc.ServiceDefinition,
    resourceProviderHandlers as unknown as grpc.UntypedServiceImplementation,
  );
  const port = await new Promise<number>((resolvePort, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolvePort(bound),
    );
  });
  // The engine reads the port from the first line of stdout.
  process.stdout.write(`${port}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-xcat: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
