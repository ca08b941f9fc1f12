/**
 * The view's tick: every `intervalMs` (5 s by default, never two at once) it reads the stack's
 * state and each server the stack's resources are on (an xCAT management node: cluster-reads.ts,
 * a Confluent server: confluent-reads.ts; two requests each for the whole cluster), builds the
 * picture and keeps it for the page, which polls this process, not the servers: however many
 * pages are open, each server sees one read per tick.
 *
 * When a server's read fails its last picture is kept, marked with the sentence saying what failed
 * and when it was drawn, and the other servers are still drawn: the page is never blank and never
 * passes old news for new.
 */
import type { XcatClient } from "../../client";
import type { ConfluentClient } from "../../client/confluent";
import type { ClusterNodes } from "./cluster-nodes";
import { xcatClusterNodes } from "./cluster-nodes";
import { readCluster } from "./cluster-reads";
import { confluentClusterNodes } from "./confluent-nodes";
import { readConfluentCluster } from "./confluent-reads";
import { policyFindings } from "./policy-marks";
import { renderSections, renderSvg } from "./render-svg";
import { stackNodes } from "./stack-nodes";
import { parseUpEvents, type UpProgress, upNote } from "./up-events";
import { buildViewModel, type ViewModel } from "./view-model";

/** One server the view draws: the stack's own, or an explicit provider's (view-servers.ts). */
export interface ViewServer {
  /** As a reader knows it, with its URL as given and never a credential (`provider mnB (https://mn-b/xcatws, xCAT)`). */
  readonly name: string;
  /** The management-node keys of the stack's resources on it (stack-resources.ts managementNodeKey). */
  readonly keys: ReadonlySet<string>;
  /** Reads its nodes; `alsoAttributes`: those the stack's Nodes recorded (xCAT reads their tables too). */
  read(alsoAttributes: ReadonlySet<string>): Promise<ClusterNodes>;
  /** What to check when it cannot be reached, ending the sentence. */
  readonly advice: string;
}

const XCAT_ADVICE =
  "Check that it runs and that the stack's config (xcat:url, xcat:username, xcat:password) or XCAT_* variables reach it from this shell.";

/** An xCAT management node, read by cluster-reads.ts (two requests per tick). */
export function xcatViewServer(
  client: XcatClient,
  name: string,
  keys: ReadonlySet<string> = new Set([""]),
  advice = XCAT_ADVICE,
): ViewServer {
  return {
    name,
    keys,
    advice,
    read: async (also) => xcatClusterNodes(await readCluster(client, also)),
  };
}

/** A Confluent server, read by confluent-reads.ts (two requests per tick). */
export function confluentViewServer(
  client: ConfluentClient,
  name: string,
  keys: ReadonlySet<string> = new Set([""]),
  advice = "Check that it runs and that the stack's config (xcat:url, xcat:username, xcat:password) or XCAT_* variables reach it from this shell.",
): ViewServer {
  return { name, keys, advice, read: async () => confluentClusterNodes(await readConfluentCluster(client)) };
}

export interface ViewSourceOptions {
  readonly stack: string;
  /** The management node as a reader knows it, for sentences (with `client`: one xCAT server). */
  readonly managementNode?: string;
  /** One xCAT management node, the stack's own (the first slice's form; `servers` is the general one). */
  readonly client?: XcatClient;
  /** The servers to draw, each in a section of its own, in this order. */
  readonly servers?: readonly ViewServer[];
  /** The stack's state (`pulumi stack export`, parsed). */
  readonly readState: () => Promise<unknown>;
  readonly intervalMs: number;
  /**
   * The running up's event log (`pulumi up --event-log`), read whole each tick: its text, or
   * undefined while the file does not exist. Absent: the view follows no event log.
   */
  readonly eventLog?: { readonly file: string; readonly read: () => Promise<string | undefined> };
  /** Called after each tick, with the sentence when it failed. */
  readonly onTick?: (tick: ViewSnapshot) => void;
}

/** One server's part of a tick: its last drawing and when it was read, and what failed now. */
export interface ServerSection {
  readonly name: string;
  readonly model?: ViewModel;
  readonly readAt?: string;
  readonly problem?: string;
}

export interface ViewSnapshot {
  /** Ticks done, counting failed ones. */
  readonly tick: number;
  /** The first server's picture (the only one on a stack with one server). */
  readonly model?: ViewModel;
  /** Every server's part, in the order given. */
  readonly sections?: readonly ServerSection[];
  readonly svg?: string;
  /** When the picture was read (ISO time). */
  readonly readAt?: string;
  /** What failed at the last tick, as a sentence; undefined when it worked. */
  readonly problem?: string;
}

const NO_CONTEXT = { isNode: () => false, groupMembers: () => undefined };

export class ViewSource {
  readonly #options: ViewSourceOptions;
  readonly #servers: readonly ViewServer[];
  /** Whether the servers came as `servers` (their resources' notes say what no server draws). */
  readonly #several: boolean;
  #snapshot: ViewSnapshot = { tick: 0 };
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(options: ViewSourceOptions) {
    this.#options = options;
    this.#several = options.servers !== undefined;
    if (options.servers !== undefined) this.#servers = options.servers;
    else if (options.client !== undefined)
      this.#servers = [
        xcatViewServer(options.client, options.managementNode ?? "the stack's management node"),
      ];
    else throw new Error("ViewSource needs a client or servers");
  }

  get snapshot(): ViewSnapshot {
    return this.#snapshot;
  }

  /** One tick now (waits for one in flight instead of starting a second). */
  tick(): Promise<void> {
    this.#running ??= this.#read().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #read(): Promise<void> {
    const { stack } = this.#options;
    const tick = this.#snapshot.tick + 1;
    let state: unknown;
    try {
      state = await this.#options.readState();
    } catch (error) {
      this.#fail(tick, `The state of stack ${stack} could not be read: ${(error as Error).message}.`);
      return;
    }
    let upProgress: UpProgress | undefined;
    const eventLog = this.#options.eventLog;
    if (eventLog) {
      try {
        const text = await eventLog.read();
        if (text !== undefined) upProgress = parseUpEvents(text);
      } catch (error) {
        this.#fail(tick, `The event log ${eventLog.file} could not be read: ${(error as Error).message}.`);
        return;
      }
    }
    const undrawnNote = this.#several ? this.#undrawnNote(state) : undefined;
    const policy = policyFindings(state);
    const before = this.#snapshot.sections ?? [];
    // The servers are read side by side: one that hangs or fails leaves the others' drawings.
    const sections = await Promise.all(
      this.#servers.map(async (server, index): Promise<ServerSection> => {
        const kept = before[index];
        try {
          const recorded = stackNodes(state, NO_CONTEXT, server.keys).recorded;
          const attributes = new Set([...recorded.values()].flatMap((values) => Object.keys(values)));
          const cluster = await server.read(attributes);
          const model = buildViewModel({
            stack,
            managementNode: server.name,
            cluster,
            stackNodes: stackNodes(state, cluster.context, server.keys),
            policy,
            ...(upProgress ? { upProgress } : {}),
            ...(eventLog ? { upNote: upNote(upProgress, eventLog.file) } : {}),
            ...(undrawnNote !== undefined ? { undrawnNote } : {}),
          });
          return { name: server.name, model, readAt: new Date().toISOString() };
        } catch (error) {
          const keptNote = kept?.readAt
            ? ` The drawing ${this.#servers.length > 1 ? "of it " : ""}below is from ${kept.readAt}.`
            : this.#servers.length > 1
              ? " No drawing of it yet; the other servers are drawn."
              : "";
          return {
            name: server.name,
            ...(kept?.model ? { model: kept.model } : {}),
            ...(kept?.readAt ? { readAt: kept.readAt } : {}),
            problem: `${server.name} cannot be reached: ${(error as Error).message}. ${server.advice}${keptNote}`,
          };
        }
      }),
    );
    const problems = sections.flatMap((section) => (section.problem ? [section.problem] : []));
    const drawn = sections.filter((section) => section.model !== undefined);
    const first = sections[0];
    const svg =
      this.#servers.length === 1
        ? first?.model
          ? renderSvg(first.model)
          : undefined
        : drawn.length > 0 || problems.length > 0
          ? renderSections(stack, sections)
          : undefined;
    const fresh = sections.some((section) => section.problem === undefined);
    this.#snapshot = {
      tick,
      ...(first?.model ? { model: first.model } : {}),
      sections,
      ...(svg ? { svg } : {}),
      ...(fresh
        ? { readAt: new Date().toISOString() }
        : this.#snapshot.readAt
          ? { readAt: this.#snapshot.readAt }
          : {}),
      ...(problems.length > 0 ? { problem: problems.join(" ") } : {}),
    };
    this.#options.onTick?.(this.#snapshot);
  }

  /** The sentence on the stack's resources on no server drawn (a `connection` of their own, a provider added since the start). */
  #undrawnNote(state: unknown): string | null {
    const keys = new Set(this.#servers.flatMap((server) => [...server.keys]));
    const undrawn = stackNodes(state, NO_CONTEXT, keys).elsewhere;
    if (undrawn === 0) return null;
    return (
      `${undrawn} resources of the stack are on a server this view does not draw (a \`connection\` of their ` +
      "own, or a provider added since the view started: start it again to draw that one)."
    );
  }

  #fail(tick: number, sentence: string): void {
    const kept = this.#snapshot.readAt ? ` The drawing below is from ${this.#snapshot.readAt}.` : "";
    const { problem: _old, ...rest } = this.#snapshot;
    this.#snapshot = { ...rest, tick, problem: `${sentence}${kept}` };
    this.#options.onTick?.(this.#snapshot);
  }
  /** Ticks now and then every interval after the previous tick ended, until {@link stop}. */
  start(): void {
    const loop = () => {
      if (this.#stopped) return;
      this.tick().finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(loop, this.#options.intervalMs);
      });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}
