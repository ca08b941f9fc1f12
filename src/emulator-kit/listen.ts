/**
 * An emulator's HTTP(S) server listening on its port: the open connections are tracked so that
 * close() ends at once (a keep-alive client would otherwise hold it open), and what the server
 * used (its SQLite store) is released after the last connection, or at once when listening fails.
 */
import type { AddressInfo, Server, Socket } from "node:net";

export interface ListeningServer {
  /** The address as it goes into a URL: an IPv6 address in brackets. */
  readonly urlHost: string;
  readonly port: number;
  /** Stops listening, drops open connections, then releases; the same promise every time. */
  close(): Promise<void>;
}

export async function listen(
  server: Server,
  address: { readonly port?: number | undefined; readonly host: string },
  release: () => void,
): Promise<ListeningServer> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(address.port ?? 0, address.host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    release();
    throw error;
  }
  const bound = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    urlHost: bound.family === "IPv6" ? `[${bound.address}]` : bound.address,
    port: bound.port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => {
          release();
          resolve();
        });
        for (const socket of sockets) socket.destroy();
      });
      return closed;
    },
  };
}
