import type * as pulumi from "@pulumi/pulumi";

/**
 * `xcat:Echo`: a resource with no I/O that stores its `message` and reports its length. It exists
 * to prove the toolchain end to end (real engine → serialized thin provider → this package's
 * runtime) without an xCAT service, and is what `npm run demo` shows until the lab cluster lands.
 */
export interface EchoInputs {
  readonly message: string;
}

export interface EchoOutputs extends EchoInputs {
  readonly length: number;
}

function asInputs(value: unknown): EchoInputs | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const message = (value as Record<string, unknown>).message;
  return typeof message === "string" ? { message } : undefined;
}

export const echoImplementation: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return asInputs(news)
      ? { inputs: news }
      : { failures: [{ property: "message", reason: "xcat:Echo: 'message' must be a string" }] };
  },
  async diff(_id, olds: EchoOutputs, news: EchoInputs) {
    return { changes: olds.message !== news.message };
  },
  async create(inputs: EchoInputs) {
    const outs: EchoOutputs = { message: inputs.message, length: inputs.message.length };
    return { id: `echo-${inputs.message.length}-${Date.now().toString(36)}`, outs };
  },
  async update(_id, _olds, news: EchoInputs) {
    const outs: EchoOutputs = { message: news.message, length: news.message.length };
    return { outs };
  },
};
