/**
 * Runs the real `pulumi` CLI on a program in isolation: its own PULUMI_HOME, a local file backend
 * in a temporary directory, a passphrase secrets provider and no update checks. Each workspace
 * holds one stack. Results are parsed from the CLI's JSON output where it offers one.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { dump, load } from "js-yaml";
import { expect } from "vitest";

export interface PulumiCommandResult {
  /** The program run: `pulumi`, or what {@link PulumiWorkspace.exec} was given. */
  readonly command: string;
  readonly args: readonly string[];
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A `pulumi` command that exited non-zero; the message carries its whole output. */
export class PulumiCommandError extends Error {
  constructor(readonly result: PulumiCommandResult) {
    super(
      `${result.command} ${result.args.join(" ")} exited with ${result.exitCode}\n` +
        `--- stdout ---\n${result.stdout}\n--- stderr ---\n${result.stderr}`,
    );
    this.name = "PulumiCommandError";
  }
}

/** Counts of resource operations, as `pulumi preview --json` and `stack history` report them. */
export type ChangeSummary = Readonly<Record<string, number>>;

export interface PreviewStep {
  readonly op: string;
  readonly urn: string;
  readonly type?: string;
  readonly diffReasons?: readonly string[];
  readonly replaceReasons?: readonly string[];
  readonly detailedDiff?: Readonly<Record<string, unknown>>;
}

export interface PreviewResult {
  readonly steps: readonly PreviewStep[];
  readonly changeSummary: ChangeSummary;
  readonly raw: PulumiCommandResult;
}

export interface WorkspaceOptions {
  /** Directory of the Pulumi program to copy (must hold Pulumi.yaml). */
  readonly programDir: string;
  /** Directory below which the copy is placed; its node_modules must hold the program's packages. */
  readonly sandboxDir: string;
  readonly stackName?: string;
  /** Extra environment for every command (e.g. XCAT_URL). */
  readonly env?: Readonly<Record<string, string>>;
  /** Per-command time limit; the command is killed when it runs longer. */
  readonly timeoutMs?: number;
}

export interface RunOptions {
  /** Resolve with the result instead of throwing when pulumi exits non-zero. */
  readonly allowFailure?: boolean;
  readonly env?: Readonly<Record<string, string>>;
}

/** A command started by {@link PulumiWorkspace.start}. */
export interface StartedCommand {
  readonly pid: number | undefined;
  /** Settles when the command exits, as {@link PulumiWorkspace.run} does. */
  readonly result: Promise<PulumiCommandResult>;
  /** Sends a signal to the command and every process it started (language host, program, providers). */
  kill(signal: NodeJS.Signals): void;
  /**
   * Sends a signal to the `pulumi` process alone, as Ctrl-C in a terminal or a CI runner's
   * SIGTERM reaches it: the engine starts its plugins in process groups of their own.
   */
  signal(signal: NodeJS.Signals): void;
  /** What the command printed so far (stdout, then stderr). */
  output(): string;
}

export class PulumiWorkspace {
  /** Every command this workspace ran, in order, with its whole output (for tests that search it). */
  readonly transcript: PulumiCommandResult[] = [];

  private constructor(
    readonly workDir: string,
    readonly programDir: string,
    readonly stackName: string,
    private readonly env: Readonly<Record<string, string>>,
    private readonly timeoutMs: number,
  ) {}

  /** Copies the program into the sandbox, prepares an isolated backend and creates the stack. */
  static async create(options: WorkspaceOptions): Promise<PulumiWorkspace> {
    const id = `${basename(options.programDir)}-${randomBytes(4).toString("hex")}`;
    const workDir = join(options.sandboxDir, "programs", id);
    const programDir = join(workDir, "program");
    const home = join(workDir, "pulumi-home");
    const state = join(workDir, "state");
    await mkdir(home, { recursive: true });
    await mkdir(state, { recursive: true });
    await cp(options.programDir, programDir, {
      recursive: true,
      filter: (source) => !source.includes("node_modules") && !/Pulumi\.[^/]+\.yaml$/.test(source),
    });

    const env: Record<string, string> = {
      PULUMI_HOME: home,
      PULUMI_BACKEND_URL: `file://${state}`,
      PULUMI_CONFIG_PASSPHRASE: randomBytes(12).toString("hex"),
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
      // Pulumi's TypeScript support type-checks unless told otherwise; the tests typecheck
      // examples separately, so the engine runs them transpile-only to save time.
      PULUMI_NODEJS_TRANSPILE_ONLY: "true",
      // Every engine command starts Node processes (the program, the dynamic provider, the native
      // provider, the CLI), each loading @pulumi/pulumi and this package again: V8's code cache,
      // shared by every workspace in the sandbox, saves about a third of the CPU time of loading
      // them (docs/e2e-time.md). It changes no behaviour: Node checks each entry against its source.
      NODE_COMPILE_CACHE: join(options.sandboxDir, "node-compile-cache"),
      ...options.env,
    };
    const workspace = new PulumiWorkspace(
      workDir,
      programDir,
      options.stackName ?? "test",
      env,
      options.timeoutMs ?? 10 * 60_000,
    );
    await workspace.run(["stack", "init", workspace.stackName]);
    return workspace;
  }

  /** Runs `pulumi <args>` in the program directory with this workspace's isolation. */
  run(args: readonly string[], options: RunOptions = {}): Promise<PulumiCommandResult> {
    return this.start(args, options).result;
  }

  /**
   * Starts `pulumi <args>` and returns at once, for tests that act while it runs (kill it part
   * way). {@link StartedCommand.kill} reaches the language host, the program and the provider
   * processes as well, as a power loss would.
   */
  start(args: readonly string[], options: RunOptions = {}): StartedCommand {
    return this.spawnCommand("pulumi", [...args, "--non-interactive", "--color", "never"], options);
  }

  /**
   * Runs another command (a CI script that calls pulumi) in the program directory, with this
   * workspace's isolation: the same backend, stack selection, passphrase and time limit.
   */
  exec(command: string, args: readonly string[], options: RunOptions = {}): Promise<PulumiCommandResult> {
    return this.spawnCommand(command, args, options).result;
  }

  private spawnCommand(command: string, fullArgs: readonly string[], options: RunOptions): StartedCommand {
    const child = spawn(command, fullArgs, {
      cwd: this.programDir,
      env: { ...process.env, ...this.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const startedAt = Date.now();
    // The engine starts its plugins (language host, providers) in process groups of their own,
    // so killing pulumi's group would leave them running: kill every descendant.
    const killTree = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      for (const pid of [child.pid, ...descendantsOf(child.pid)]) {
        try {
          process.kill(pid, signal);
        } catch {
          // Already gone.
        }
      }
    };
    const result = new Promise<PulumiCommandResult>((resolvePromise, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const timer = setTimeout(() => {
        stderr += `\n[harness] killed after ${this.timeoutMs} ms\n`;
        killTree("SIGKILL");
      }, this.timeoutMs);
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        const result: PulumiCommandResult = {
          command,
          args: fullArgs,
          exitCode: code ?? (signal ? 128 : 1),
          stdout,
          stderr,
        };
        this.transcript.push(result);
        recordDuration(command, fullArgs, Date.now() - startedAt);
        if (result.exitCode !== 0 && !options.allowFailure) reject(new PulumiCommandError(result));
        else resolvePromise(result);
      });
    });
    return {
      pid: child.pid,
      result,
      kill: killTree,
      signal: (signal) => {
        if (child.exitCode === null) child.kill(signal);
      },
      output: () => `${stdout}${stderr}`,
    };
  }

  /**
   * Sets one key of the stack's config: a secret with `pulumi config set --secret` (the CLI
   * encrypts it), a plain value straight into Pulumi.<stack>.yaml (see {@link setConfigs}).
   */
  async setConfig(key: string, value: string, options: { secret?: boolean } = {}): Promise<void> {
    if (options.secret) await this.run(["config", "set", key, value, "--secret"]);
    else await this.setConfigs({ [key]: value });
  }

  /**
   * Sets several keys: `plain` written straight into the stack's settings file
   * Pulumi.<stack>.yaml, as `pulumi config set --plaintext` writes them (a key without a namespace
   * under the project's name, the value a string), and `secret` encrypted by the CLI with one
   * `pulumi config set-all` when there is any. A `pulumi` process costs 0.5-0.8 s of CPU and
   * seconds on a busy machine (docs/e2e-time.md); a plain value needs no encryption, so no process.
   */
  async setConfigs(
    plain: Readonly<Record<string, string>>,
    secret: Readonly<Record<string, string>> = {},
  ): Promise<void> {
    if (Object.keys(plain).length > 0) {
      const project = await this.projectName();
      await this.editStackConfig((config) => {
        for (const [key, value] of Object.entries(plain)) config[qualifiedKey(key, project)] = value;
      });
    }
    if (Object.keys(secret).length === 0) return;
    await this.run([
      "config",
      "set-all",
      ...Object.entries(secret).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
    ]);
  }

  /** Removes keys from the stack's config (`pulumi config rm`), in Pulumi.<stack>.yaml directly. */
  async removeConfig(...keys: readonly string[]): Promise<void> {
    const project = await this.projectName();
    await this.editStackConfig((config) => {
      for (const key of keys) delete config[qualifiedKey(key, project)];
    });
  }

  /**
   * Reads Pulumi.<stack>.yaml (`pulumi stack init` wrote it with the passphrase's salt), lets
   * `edit` change its `config` map and writes it back, every value double-quoted so that YAML
   * reads each as the string the CLI would have stored ("3", "true", "" stay strings).
   */
  private async editStackConfig(edit: (config: Record<string, unknown>) => void): Promise<void> {
    const file = join(this.programDir, `Pulumi.${this.stackName}.yaml`);
    const settings = ((await readFile(file, "utf8").then(load, () => undefined)) ?? {}) as Record<
      string,
      unknown
    >;
    const config = { ...((settings.config as Record<string, unknown> | undefined) ?? {}) };
    edit(config);
    settings.config = config;
    await writeFile(file, dump(settings, { forceQuotes: true, quotingType: '"', lineWidth: -1 }));
  }

  /** `pulumi preview --json`: the planned steps and the count per operation. */
  async preview(extraArgs: readonly string[] = []): Promise<PreviewResult> {
    const raw = await this.run(["preview", "--json", ...extraArgs]);
    const parsed = JSON.parse(raw.stdout) as { steps?: PreviewStep[]; changeSummary?: ChangeSummary };
    return { steps: parsed.steps ?? [], changeSummary: parsed.changeSummary ?? {}, raw };
  }

  /** `pulumi up --yes`; returns the change counts the engine recorded for this update. */
  async up(extraArgs: readonly string[] = []): Promise<ChangeSummary> {
    await this.run(["up", "--yes", "--skip-preview", ...extraArgs]);
    return this.lastChanges();
  }

  /**
   * `pulumi up --yes` with its preview, as a user runs it (no `--skip-preview`), for a test that
   * asserts what a preview shows and then what the update does: one engine command where
   * `preview` and `up --skip-preview` were two (the program, the language host and the providers
   * start once). `preview.stdout` is what the command printed before the update began (its
   * "Updating (<stack>):" line): the preview, e.g. its `--diff`. Between the two phases nothing
   * of the test runs, so use it only where the test checks nothing in between.
   */
  async upAfterPreview(
    extraArgs: readonly string[] = [],
  ): Promise<{ preview: { stdout: string }; changes: ChangeSummary; raw: PulumiCommandResult }> {
    const raw = await this.run(["up", "--yes", ...extraArgs]);
    const update = /^Updating \(/m.exec(raw.stdout);
    return {
      preview: { stdout: update ? raw.stdout.slice(0, update.index) : raw.stdout },
      changes: await this.lastChanges(),
      raw,
    };
  }

  /**
   * `pulumi up --yes --json` with its preview: the command prints the preview first, as the same
   * JSON document `pulumi preview --json` prints (steps, change summary; checked on pulumi
   * v3.259.0, docs/e2e-time.md), then the update's engine events. One engine command where a
   * `preview --json` (e.g. for `pulumi-xcat review`) and an `up --skip-preview` were two; as
   * {@link upAfterPreview}, only where the test checks nothing between the preview and the update.
   */
  async upAfterJsonPreview(
    extraArgs: readonly string[] = [],
  ): Promise<{ preview: PreviewResult; previewJson: string; changes: ChangeSummary }> {
    const raw = await this.run(["up", "--yes", "--json", ...extraArgs]);
    // The preview's document is printed indented, so its closing brace is the first line that is "}".
    const end = /^\}$/m.exec(raw.stdout);
    if (end === null) throw new Error(`pulumi up --json printed no preview document:\n${raw.stdout}`);
    const previewJson = raw.stdout.slice(0, end.index + 1);
    const parsed = JSON.parse(previewJson) as { steps?: PreviewStep[]; changeSummary?: ChangeSummary };
    return {
      preview: { steps: parsed.steps ?? [], changeSummary: parsed.changeSummary ?? {}, raw },
      previewJson,
      changes: await this.lastChanges(),
    };
  }

  async refresh(extraArgs: readonly string[] = []): Promise<ChangeSummary> {
    await this.run(["refresh", "--yes", "--skip-preview", ...extraArgs]);
    return this.lastChanges();
  }

  async destroy(extraArgs: readonly string[] = []): Promise<ChangeSummary> {
    await this.run(["destroy", "--yes", "--skip-preview", ...extraArgs]);
    return this.lastChanges();
  }

  /**
   * The stack's outputs, secrets shown in plain text. Read from the file backend's checkpoint (the
   * root Stack resource's outputs, as `pulumi stack output --json` prints them) when none is a
   * secret; with a secret, `pulumi stack output --json --show-secrets` decrypts it.
   */
  async outputs(): Promise<Record<string, unknown>> {
    const { resources } = await this.exportState();
    const stack = resources.find((resource) => resource.type === "pulumi:pulumi:Stack");
    const outputs = stack?.outputs ?? {};
    if (stack !== undefined && !JSON.stringify(outputs).includes(`"${SECRET_SIGNATURE}"`)) return outputs;
    const raw = await this.run(["stack", "output", "--json", "--show-secrets"]);
    return JSON.parse(raw.stdout) as Record<string, unknown>;
  }

  /**
   * The stack's checkpoint as `pulumi stack export` prints it (secrets stay encrypted), read from
   * the file backend, whose stack file holds the same deployment under `checkpoint.latest`
   * (`pulumi stack export` prints that deployment as `{ version: 3, deployment }`, checked equal on
   * pulumi v3.259.0, docs/e2e-time.md): a
   * `pulumi` process fewer each time a test looks at the state.
   */
  async exportState(): Promise<{ readonly text: string; readonly resources: readonly StateResource[] }> {
    const parsed = JSON.parse(await this.stateFileText()) as {
      checkpoint?: { latest?: { resources?: StateResource[] } };
    };
    const deployment = parsed.checkpoint?.latest ?? {};
    return {
      text: JSON.stringify({ version: 3, deployment }, null, 4),
      resources: deployment.resources ?? [],
    };
  }

  /** What `pulumi stack export` prints (secrets stay encrypted): for tests about that command's output. */
  async exportWithCli(): Promise<string> {
    return (await this.run(["stack", "export"])).stdout;
  }

  /**
   * The newest update's record in the file backend (the entry `pulumi stack history --json`
   * prints first): its kind, result, message and change counts.
   */
  async lastUpdate(): Promise<{ readonly message?: string; readonly resourceChanges?: ChangeSummary }> {
    const project = await this.projectName();
    const dir = join(this.workDir, "state", ".pulumi", "history", project, this.stackName);
    // `<stack>-<unix nanoseconds>.history.json`: the names sort in the order of the updates.
    const newest = (await readdir(dir))
      .filter((name) => name.endsWith(".history.json"))
      .sort()
      .at(-1);
    if (newest === undefined) throw new Error(`no update of stack ${this.stackName} is recorded in ${dir}`);
    return JSON.parse(await readFile(join(dir, newest), "utf8")) as {
      message?: string;
      resourceChanges?: ChangeSummary;
    };
  }

  /** The raw state file of the file backend, exactly as written to disk. */
  async stateFileText(): Promise<string> {
    const file = join(
      this.workDir,
      "state",
      ".pulumi",
      "stacks",
      await this.projectName(),
      `${this.stackName}.json`,
    );
    return readFile(file, "utf8");
  }

  /**
   * The change counts of the most recent update (up, refresh, destroy, import), as the engine
   * recorded them: the `resourceChanges` of the newest history file of the stack in the file
   * backend, the record `pulumi stack history` prints. Read from disk because a `pulumi` process
   * costs about a second and a half on a busy machine, and up, refresh and destroy ask for it
   * after every run (docs/e2e-time.md).
   */
  async lastChanges(): Promise<ChangeSummary> {
    return (await this.lastUpdate()).resourceChanges ?? {};
  }

  /**
   * Removes the workspace's files, the file backend with the stack's state among them (the same
   * as `pulumi stack rm --force` and then deleting the directory, without a `pulumi` process).
   */
  async dispose(): Promise<void> {
    await rm(this.workDir, { recursive: true, force: true });
  }

  /** The project's name, from the program's Pulumi.yaml. */
  private async projectName(): Promise<string> {
    const text = await readFile(join(this.programDir, "Pulumi.yaml"), "utf8");
    const name = /^name:\s*(\S+)/m.exec(text)?.[1];
    if (name === undefined) throw new Error(`no project name in ${join(this.programDir, "Pulumi.yaml")}`);
    return name;
  }
}

/** The key Pulumi marks a secret value with in state (sdk/go/common/resource/sig, "Secret"). */
const SECRET_SIGNATURE = "1b47061264138c4ac30d75fd1eb44270";

/** A config key as the CLI stores it: one without a namespace belongs to the project. */
function qualifiedKey(key: string, project: string): string {
  return key.includes(":") ? key : `${project}:${key}`;
}

/**
 * With PULUMI_XCAT_E2E_TIMINGS=<file>, one JSON line per command run (the test file, the command,
 * its first arguments, milliseconds) is appended to the file: where the e2e tier's time goes.
 */
function recordDuration(command: string, args: readonly string[], ms: number): void {
  const file = process.env.PULUMI_XCAT_E2E_TIMINGS;
  if (!file) return;
  const test = expect.getState().testPath ?? "";
  appendFileSync(file, `${JSON.stringify({ test, command, args: args.slice(0, 3), ms })}\n`);
}

/** The pids of every live descendant of `pid`, from /proc (Linux). */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      // Field 4 of /proc/<pid>/stat is the parent pid; the command name before it may hold spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() ?? -1) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

export interface StateResource {
  readonly urn: string;
  readonly type: string;
  readonly id?: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}
