/**
 * Commands that reach into running nodes over ssh: xdsh (nodeshell), xdcp (nodecopy) and
 * updatenode. A node must be powered on to answer; the shell knows a few common commands and
 * answers others as bash would (xcat-behavior.md §2.3 infoout: output is `node: line`).
 */
import { nodeError } from "../../contract/messages";
import type { Database } from "./database";
import type { Definitions } from "./definitions";
import { CommandError } from "./errors";
import type { Hardware } from "./hardware";
import { splitList } from "./node-index";

/** Output lines per node, each starting with a space as xdsh prints `node: text`. */
export type NodeLines = Map<string, string[]>;

function unreachable(node: string): string {
  return nodeError(node, `ssh: connect to host ${node} port 22: No route to host`);
}

export class RemoteCommands {
  readonly #db: Database;
  readonly #defs: Definitions;
  readonly #hw: Hardware;

  constructor(db: Database, defs: Definitions, hw: Hardware) {
    this.#db = db;
    this.#defs = defs;
    this.#hw = hw;
  }

  #reachable(nodes: readonly string[]): void {
    const states = this.#hw.getMany(nodes);
    const errors = nodes.filter((n) => states.get(n)?.power !== "on").map(unreachable);
    if (errors.length > 0) throw new CommandError(errors);
  }

  /** xdsh: runs `;`-separated commands on each node. */
  shell(nodes: readonly string[], command: string, env: ReadonlyMap<string, string>): NodeLines {
    this.#reachable(nodes);
    const objects = this.#defs.read(nodes);
    const out: NodeLines = new Map();
    const errors: string[] = [];
    for (const node of nodes) {
      const lines: string[] = [];
      for (const raw of command.split(/;|&&/)) {
        const cmd = raw.trim();
        if (cmd === "") continue;
        const result = this.#run(node, cmd, env, objects.get(node)?.os);
        if (typeof result === "string") {
          errors.push(nodeError(node, result));
          break;
        }
        lines.push(...result.map((l) => ` ${l}`));
      }
      out.set(node, lines);
    }
    if (errors.length > 0) throw new CommandError(errors);
    return out;
  }

  #run(
    node: string,
    cmd: string,
    env: ReadonlyMap<string, string>,
    os: string | undefined,
  ): string[] | string {
    const [program = "", ...args] = cmd.split(/\s+/);
    const d = this.#hw.derived(node);
    const now = this.#hw.now();
    const expand = (s: string) =>
      s.replace(/\$\{?(\w+)\}?/g, (_, k: string) => env.get(k) ?? (k === "HOSTNAME" ? node : ""));
    switch (program) {
      case "hostname":
        return [args.includes("-f") ? `${node}.cluster.local` : node];
      case "echo":
        return [expand(args.join(" ").replace(/^["']|["']$/g, ""))];
      case "true":
      case ":":
        return [];
      case "whoami":
        return ["root"];
      case "id":
        return ["uid=0(root) gid=0(root) groups=0(root)"];
      case "pwd":
        return ["/root"];
      case "date":
        return [now.toUTCString().replace("GMT", "UTC")];
      case "uptime": {
        const minutes = d.int("uptime", 5, 50_000);
        const days = Math.floor(minutes / 1440);
        const hm = `${Math.floor((minutes % 1440) / 60)}:${String(minutes % 60).padStart(2, "0")}`;
        return [
          ` ${now.toTimeString().slice(0, 8)} up ${days > 0 ? `${days} days, ` : ""}${hm},  0 users,  load average: 0.00, 0.01, 0.05`,
        ];
      }
      case "uname":
        return [
          args.includes("-a")
            ? `Linux ${node} 4.18.0-513.el8.x86_64 #1 SMP x86_64 x86_64 x86_64 GNU/Linux`
            : "Linux",
        ];
      case "cat":
        if (args[0] === "/etc/os-release") return osRelease(os);
        if (args[0] === "/etc/hostname") return [node];
        return `cat: ${args[0] ?? ""}: No such file or directory`;
      default:
        return `bash: ${program}: command not found`;
    }
  }

  /** xdcp: records each copy (src must be a list of paths, target a directory). */
  copy(nodes: readonly string[], sources: readonly string[], target: string): void {
    this.#reachable(nodes);
    for (const node of nodes) {
      for (const src of sources) this.#db.insert("_emu_copies", { node, src, target });
    }
  }

  /** updatenode: sync files, software maintenance and postscripts, as progress lines. */
  update(
    nodes: readonly string[],
    mode: "all" | "files" | "software" | "scripts",
    scripts?: readonly string[],
  ) {
    this.#reachable(nodes);
    const objects = this.#defs.read(nodes);
    const out: NodeLines = new Map();
    for (const node of nodes) {
      const object = objects.get(node) ?? {};
      const lines: string[] = [];
      if (mode === "all" || mode === "files") lines.push(" There were no syncfiles defined to process.");
      if (mode === "all" || mode === "software") {
        lines.push(
          " Performing software maintenance operations.",
          ` ${node}: otherpkgs: no packages to install.`,
        );
      }
      if (mode === "all" || mode === "scripts") {
        const list = scripts ?? splitList(object.postscripts);
        for (const script of list)
          lines.push(` Running postscript: ${script}`, ` Postscript: ${script} exited with code 0`);
        lines.push(" Running of postscripts has completed.");
      }
      out.set(node, lines);
    }
    return out;
  }
}

function osRelease(os: string | undefined): string[] {
  const match = /^([a-z]+?)(\d+(?:\.\d+)?)/.exec(os ?? "rhels8.8");
  const version = match?.[2] ?? "8.8";
  const family = match?.[1] ?? "rhels";
  if (family.startsWith("ubuntu")) {
    return ['NAME="Ubuntu"', `VERSION_ID="${version}"`, "ID=ubuntu", 'ID_LIKE="debian"'];
  }
  if (family.startsWith("sles")) {
    return ['NAME="SLES"', `VERSION_ID="${version}"`, 'ID="sles"', 'ID_LIKE="suse"'];
  }
  return [
    'NAME="Red Hat Enterprise Linux"',
    `VERSION="${version} (Ootpa)"`,
    'ID="rhel"',
    'ID_LIKE="fedora"',
    `VERSION_ID="${version}"`,
    `PRETTY_NAME="Red Hat Enterprise Linux ${version} (Ootpa)"`,
  ];
}
