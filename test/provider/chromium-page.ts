/**
 * A headless Chromium page driven over Chromium's own DevTools protocol (a WebSocket, Node's
 * built-in client): no npm library, and no browser download of its own. The binary is
 * PULUMI_XCAT_CHROMIUM, else Debian's chromium-headless-shell that scripts/fetch-chromium.sh
 * brings into the toolchain's cache (idempotent; minutes the first time on a new machine). When
 * neither can be had the test fails with the script's sentence: it never skips.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { cachedChromiumDir, chromiumFlags } from "../../src/cli/view/chromium";

const repoRoot = resolve(import.meta.dirname, "../..");

/** The Chromium binary: PULUMI_XCAT_CHROMIUM, else fetched into the cache. Throws the fetch's sentence. */
export function chromiumForTests(): Promise<string> {
  const given = process.env.PULUMI_XCAT_CHROMIUM;
  if (given) return Promise.resolve(given);
  return new Promise((done, fail) => {
    execFile(
      "bash",
      [join(repoRoot, "scripts/fetch-chromium.sh"), cachedChromiumDir()],
      { encoding: "utf8", timeout: 30 * 60_000 },
      (error, stdout, stderr) => {
        if (error) fail(new Error(`no Chromium for the browser test: ${stderr.trim() || error.message}`));
        else done(stdout.trim());
      },
    );
  });
}

interface Pending {
  resolve(value: Record<string, unknown>): void;
  reject(error: Error): void;
}

export class ChromiumPage {
  readonly #socket: WebSocket;
  readonly #session: string;
  readonly #stop: () => Promise<void>;
  readonly #pending: Map<number, Pending>;
  #next: { id: number };

  private constructor(
    socket: WebSocket,
    session: string,
    pending: Map<number, Pending>,
    next: { id: number },
    stop: () => Promise<void>,
  ) {
    this.#socket = socket;
    this.#session = session;
    this.#pending = pending;
    this.#next = next;
    this.#stop = stop;
  }

  /** Starts Chromium and opens `url` in a page of `width` x `height`. */
  static async open(binary: string, url: string, width: number, height: number): Promise<ChromiumPage> {
    const profile = await mkdtemp(join(tmpdir(), "pulumi-xcat-chromium-"));
    const child = spawn(
      binary,
      [...chromiumFlags(), "--remote-debugging-port=0", `--user-data-dir=${profile}`, "about:blank"],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    const endpoint = await new Promise<string>((done, fail) => {
      let seen = "";
      child.stderr.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (match?.[1]) done(match[1]);
      });
      child.once("exit", (code) => fail(new Error(`Chromium exited (${code}) before listening:\n${seen}`)));
    });
    const socket = new WebSocket(endpoint);
    await new Promise((done, fail) => {
      socket.addEventListener("open", done, { once: true });
      socket.addEventListener("error", () => fail(new Error("no DevTools connection")), { once: true });
    });
    const pending = new Map<number, Pending>();
    const next = { id: 1 };
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      if (message.id === undefined) return;
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
    });
    const send = (method: string, params: Record<string, unknown>, sessionId?: string) =>
      new Promise<Record<string, unknown>>((done, fail) => {
        const id = next.id++;
        pending.set(id, { resolve: done, reject: fail });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    const { targetId } = (await send("Target.createTarget", { url: "about:blank" })) as { targetId: string };
    const { sessionId } = (await send("Target.attachToTarget", { targetId, flatten: true })) as {
      sessionId: string;
    };
    await send(
      "Emulation.setDeviceMetricsOverride",
      { width, height, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    await send("Page.enable", {}, sessionId);
    await send("Page.navigate", { url }, sessionId);
    const stop = async () => {
      socket.close();
      child.kill("SIGTERM");
      await new Promise((done) => (child.exitCode !== null ? done(undefined) : child.once("exit", done)));
      await rm(profile, { recursive: true, force: true });
    };
    return new ChromiumPage(socket, sessionId, pending, next, stop);
  }

  #send(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((done, fail) => {
      const id = this.#next.id++;
      this.#pending.set(id, { resolve: done, reject: fail });
      this.#socket.send(JSON.stringify({ id, method, params, sessionId: this.#session }));
    });
  }

  /** Evaluates `expression` in the page (awaiting a promise) and returns its value. */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = (await this.#send("Runtime.evaluate", {
      expression,
      awaitPromise: true,
      returnByValue: true,
    })) as { result?: { value?: T }; exceptionDetails?: { text: string } };
    if (answer.exceptionDetails) throw new Error(`page: ${answer.exceptionDetails.text}`);
    return answer.result?.value as T;
  }

  /** Polls `expression` until it is truthy, every 200 ms; the test's timeout bounds it. */
  async waitFor(expression: string): Promise<void> {
    while (!(await this.evaluate<boolean>(`Boolean(${expression})`))) {
      await new Promise((done) => setTimeout(done, 200));
    }
  }

  /** A PNG of the whole page, written to `file`. */
  async screenshot(file: string): Promise<void> {
    const { data } = (await this.#send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: true,
    })) as {
      data: string;
    };
    await writeFile(file, Buffer.from(data, "base64"));
  }

  close(): Promise<void> {
    return this.#stop();
  }
}
