/**
 * The view's tick: every `intervalMs` (5 s by default, never two at once) it reads the stack's
 * state and the management node (cluster-reads.ts: two requests for the whole cluster), builds the
 * picture and keeps it for the page, which polls this process, not the management node: however
 * many pages are open, the management node sees one read per tick.
 *
 * When a read fails the last picture is kept, marked with the sentence saying what failed and
 * when it was drawn, so the page is never blank and never passes old news for new.
 */
import type { XcatClient } from "../../client";
import type { NoderangeContext } from "../../contract/noderange";
import { readCluster } from "./cluster-reads";
import { policyFindings } from "./policy-marks";
import { renderSvg } from "./render-svg";
import { stackNodes } from "./stack-nodes";
import { parseUpEvents, type UpProgress, upNote } from "./up-events";
import { buildViewModel, type ViewModel } from "./view-model";

export interface ViewSourceOptions {
  readonly stack: string;
  /** The management node as a reader knows it, for sentences. */
  readonly managementNode: string;
  readonly client: XcatClient;
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

export interface ViewSnapshot {
  /** Ticks done, counting failed ones. */
  readonly tick: number;
  readonly model?: ViewModel;
  readonly svg?: string;
  /** When the picture was read (ISO time). */
  readonly readAt?: string;
  /** What failed at the last tick, as a sentence; undefined when it worked. */
  readonly problem?: string;
}

export class ViewSource {
  readonly #options: ViewSourceOptions;
  #snapshot: ViewSnapshot = { tick: 0 };
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(options: ViewSourceOptions) {
    this.#options = options;
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
    const { client, stack, managementNode } = this.#options;
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
    try {
      const recorded = stackNodes(state, { isNode: () => false, groupMembers: () => undefined }).recorded;
      const attributes = new Set([...recorded.values()].flatMap((values) => Object.keys(values)));
      const cluster = await readCluster(client, attributes);
      const context: NoderangeContext = {
        isNode: (name) => cluster.facts.isNode(name),
        groupMembers: (group) => {
          const members = cluster.facts.membersOf(group);
          return members.length > 0 ? members : undefined;
        },
      };
      const model = buildViewModel({
        stack,
        managementNode,
        nodes: cluster.nodes,
        facts: cluster.facts,
        power: cluster.power,
        ...(cluster.powerProblem ? { powerProblem: cluster.powerProblem } : {}),
        stackNodes: stackNodes(state, context),
        policy: policyFindings(state),
        ...(upProgress ? { upProgress } : {}),
        ...(eventLog ? { upNote: upNote(upProgress, eventLog.file) } : {}),
      });
      this.#snapshot = { tick, model, svg: renderSvg(model), readAt: new Date().toISOString() };
      this.#options.onTick?.(this.#snapshot);
    } catch (error) {
      this.#fail(
        tick,
        `${managementNode} cannot be reached: ${(error as Error).message}. Check that it runs and that the ` +
          "stack's config (xcat:url, xcat:username, xcat:password) or XCAT_* variables reach it from this shell.",
      );
    }
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
