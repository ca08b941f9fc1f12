/**
 * xCAT's `restapitest` script (/tmp/xc/xCAT-test/restapitest), run over HTTP against an emulator
 * instead of through curl. Two versions:
 * - `shipped`: the script at xcat-core 7733d16f. It needs `-u` and `-p` (without them it prints
 *   `Userid and password must be supplied` and exits 1, :108-113), asks for a token with `-t`
 *   (:120-125), sends `curl -X M 'https://host/xcatws<r>?userName=u&userPW=p&pretty=1'` with the
 *   body as `--data` and the headers dumped to a file (run_restapi, :191-228), exits with the
 *   status of the first `HTTP/x nnn reason` header line (check_errcode, :390-406; `exit 403` is
 *   147 to the shell) and prints `Data::Dumper` of the body (:136). `-o`/`-O` are read but never
 *   used: `restapitest -o X -O ==` alone exits 1 for want of credentials.
 * - `as-written`: what the REST cases that omit `-u`/`-p` or use `cmdcheck:` were written for
 *   (restapitest of c4b71ab3d, 2014, until ac9979301, 2018): missing credentials come from the
 *   test configuration, and `-o`/`-O` without `-m` compares the saved body of the last request
 *   (check_result, :411-510, ./check-result.ts) instead of sending one. Everything else is the
 *   shipped script.
 */
import { request } from "undici";
import { checkResult, parseJson } from "./check-result";

/** Which restapitest runs the cases (see the file comment). */
export type RestapitestVersion = "shipped" | "as-written";

/** What a command gave xcattest: its exit code and everything it printed. */
export interface CommandRun {
  readonly rc: number;
  readonly output: string;
}

/** The options restapitest declares (GetOptions, :54-68): which take a value. */
const VALUE_OPTIONS = new Set(["-m", "-r", "-h", "-u", "-p", "-P", "-d", "-c", "-o", "-O"]);
const FLAG_OPTIONS = new Set(["-t", "--debug", "-?"]);

/** One restapitest installation: its version, the MN it talks to and its saved last result. */
export class Restapitest {
  readonly #baseUrl: string;
  readonly #version: RestapitestVersion;
  readonly #account: { readonly user: string; readonly password: string };
  /** /tmp/testrestapiresult: the body of the last request (run_restapi, :222-226). */
  #lastResult = "";

  constructor(baseUrl: string, version: RestapitestVersion, account: { user: string; password: string }) {
    this.#baseUrl = baseUrl;
    this.#version = version;
    this.#account = account;
  }

  /** Runs `restapitest <args>` (the words after the command name). */
  async run(args: readonly string[]): Promise<CommandRun> {
    const options = parseOptions(args);
    if (!options) return { rc: 1, output: "Usage:testrestapi - Run xcat test cases.\n" };
    const method = options.get("-m");
    const resource = options.get("-r");
    // :85-98: -m and -r go together (the usage text that follows is left out).
    if (method && !resource) return { rc: 0, output: "-m must be used with -r \n" };
    if (resource && !method) return { rc: 0, output: "-r must be used with -m \n" };
    const expected = options.get("-o");
    if (this.#version === "as-written" && expected && method === undefined) {
      return { rc: checkResult(expected, options.get("-O") ?? "", this.#lastResult), output: "" };
    }
    let user = options.get("-u");
    let password = options.get("-p");
    if (this.#version === "as-written") {
      user ||= this.#account.user;
      password ||= this.#account.password;
    }
    if (!user || !password) return { rc: 1, output: "Userid and password must be supplied\n" };

    let token: string | undefined;
    if (options.has("-t")) {
      const reply = await request(`${this.#baseUrl}/tokens`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userName: user, userPW: password }),
      });
      const parsed = parseJson(await reply.body.text());
      const inner = parsed instanceof Map ? parsed.get("token") : undefined;
      const id = inner instanceof Map ? inner.get("id") : undefined;
      token = typeof id === "string" && id !== "" ? id : undefined;
    }
    const query = `${token ? "" : `userName=${user}&userPW=${password}`}&pretty=1`;
    const headers: Record<string, string> = {};
    if (token) headers["x-auth-token"] = token;
    const data = options.get("-d");
    if (data) headers["content-type"] = "application/json";
    const reply = await request(`${this.#baseUrl}${resource ?? ""}?${query}`, {
      method: (method ?? "GET") as "GET",
      headers,
      ...(data ? { body: data } : {}),
    });
    const body = await reply.body.text();
    this.#lastResult = body;
    return { rc: reply.statusCode % 256, output: dumper(body) };
  }
}

/** `print Dumper $string` with Data::Dumper's defaults: single quotes, `\` and `'` escaped. */
function dumper(text: string): string {
  return `$VAR1 = '${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}';\n`;
}

/** Getopt::Long over the declared options; undefined when an unknown option is given (:54-72). */
function parseOptions(args: readonly string[]): Map<string, string> | undefined {
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? "";
    if (FLAG_OPTIONS.has(word)) options.set(word, "1");
    else if (VALUE_OPTIONS.has(word)) options.set(word, args[++i] ?? "");
    else if (word.startsWith("-")) return undefined;
  }
  return options;
}
