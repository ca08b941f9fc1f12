/**
 * The provider process learns of the engine's Cancel call (issue 29 item 3) by the HTTP/2 path of
 * the gRPC request, as it reaches Pulumi's dynamic-provider server (grpc-js on Node's http2). A
 * real http2 server stands in for it here; the whole path runs through the engine in
 * test/e2e/roll-stop.test.ts.
 */
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CANCEL_PATH, whileCancellable } from "../../src/provider/engine-cancel";

describe("whileCancellable", () => {
  let server: http2.Http2Server;
  let client: http2.ClientHttp2Session;

  beforeEach(async () => {
    // Like grpc-js, a server that answers every stream (grpc-js's Cancel handler answers Empty).
    server = http2.createServer();
    server.on("stream", (stream) => {
      stream.respond({ ":status": 200 });
      stream.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    client = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });

  afterEach(async () => {
    client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const call = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const request = client.request({ ":method": "POST", ":path": path });
      let status = 0;
      request.on("response", (headers) => {
        status = Number(headers[":status"]);
      });
      request.on("error", reject);
      request.on("end", () => resolve(status));
      request.resume();
      request.end();
    });

  it("aborts the operations in flight when the Cancel call arrives, and the server still answers it", async () => {
    let seen: AbortSignal | undefined;
    const operation = whileCancellable(async (signal) => {
      seen = signal;
      expect(signal.aborted).toBe(false);
      // Found among the process's handles and observed too, for Node versions without the
      // http2 diagnostics channel.
      expect(server.listenerCount("stream")).toBe(2);
      expect(await call("/pulumirpc.ResourceProvider/Check")).toBe(200);
      expect(signal.aborted).toBe(false);
      expect(await call(CANCEL_PATH)).toBe(200);
      return signal.aborted;
    });
    expect(await operation).toBe(true);
    expect(seen?.reason).toEqual(new Error("the Pulumi engine asked to cancel"));
  });

  it("a Cancel with nothing in flight (the one that ends every run) leaves later operations alone", async () => {
    await whileCancellable(async () => undefined);
    expect(await call(CANCEL_PATH)).toBe(200);
    const aborted = await whileCancellable(async (signal) => {
      await call("/pulumirpc.ResourceProvider/Update");
      return signal.aborted;
    });
    expect(aborted).toBe(false);
  });

  it("aborts every operation in flight, and none that ended before", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ended = await whileCancellable(async (signal) => signal);
    const first = whileCancellable(async (signal) => {
      await gate;
      return signal.aborted;
    });
    const second = whileCancellable(async (signal) => {
      await gate;
      return signal.aborted;
    });
    await call(CANCEL_PATH);
    release();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(ended.aborted).toBe(false);
  });
});
