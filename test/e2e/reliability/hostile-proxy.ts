/**
 * A reverse proxy in front of the emulator that can be told to answer like a broken or careless
 * management node: failing requests with bodies that echo everything they were sent (the token
 * header, the password, the node's BMC password). The emulator never echoes secrets, so this is
 * how the tests make sure that what a server echoes does not reach the user.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How to answer a request instead of forwarding it; undefined forwards it. */
export type Echo = (request: {
  method: string;
  url: string;
}) => { status: number; format: "xcat-json" | "html" | "plain" } | undefined;

export interface HostileProxy {
  /** Base URL of the proxy, ending in /xcatws. */
  readonly url: string;
  /** Sets the rule for the following requests. */
  echo(rule: Echo | undefined): void;
  /** Requests answered by the rule so far. */
  readonly echoed: () => number;
  close(): Promise<void>;
}

function render(
  format: "xcat-json" | "html" | "plain",
  request: IncomingMessage,
  body: string,
): { type: string; text: string } {
  const seen = `${request.method} ${request.url} headers ${JSON.stringify(request.headers)} body ${body}`;
  switch (format) {
    case "xcat-json":
      return {
        type: "application/json",
        text: JSON.stringify({ error: [`internal error while handling ${seen}`], errorcode: "1" }),
      };
    case "html":
      return {
        type: "text/html",
        text: `<html><body><h1>Internal Server Error</h1><pre>${seen}</pre>\n<p>x-auth-token ${String(request.headers["x-auth-token"])}</p></body></html>`,
      };
    case "plain":
      // The values alone, with no key names a pattern could key on.
      return {
        type: "text/plain",
        text: `rejected ${String(request.headers["x-auth-token"])}: ${valuesOf(body).join(" ")}`,
      };
  }
}

function valuesOf(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === "object" && parsed !== null ? Object.values(parsed).map(String) : [body];
  } catch {
    return [body];
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startHostileProxy(targetUrl: string): Promise<HostileProxy> {
  const target = new URL(targetUrl);
  let rule: Echo | undefined;
  let echoed = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const body = await readBody(request);
      const method = request.method ?? "GET";
      const answer = rule?.({ method, url: request.url ?? "/" });
      if (answer) {
        echoed += 1;
        const { type, text } = render(answer.format, request, body);
        response.writeHead(answer.status, { "content-type": type });
        response.end(text);
        return;
      }
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && key !== "host" && key !== "connection") headers[key] = value;
      }
      const forwarded = await fetch(`${target.origin}${request.url ?? "/"}`, {
        method,
        headers,
        ...(body.length > 0 ? { body } : {}),
      });
      const text = await forwarded.text();
      response.writeHead(forwarded.status, {
        "content-type": forwarded.headers.get("content-type") ?? "application/json",
      });
      response.end(text);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolvePromise) => server.listen(0, "127.0.0.1", resolvePromise));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/xcatws`,
    echo(next) {
      rule = next;
    },
    echoed: () => echoed,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => resolvePromise());
      }),
  };
}
