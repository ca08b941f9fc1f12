/**
 * What xCAT's `restapitest` script does (/tmp/xc/xCAT-test/restapitest), over HTTP against an
 * emulator instead of curl: the request it builds (run_restapi, :206-236: credentials and
 * `pretty=1` in the query, or an `X-Auth-Token` from POST /tokens with `-t`, :126-131), its exit
 * code (the HTTP status, :139-140, which the shell sees modulo 256), its output (`Data::Dumper` of
 * the body, :142) and its `-o`/`-O` comparison of the last body (check_result, :393-494).
 */
import { request } from "undici";
import { shellWords } from "./case-file";

/** The result of one restapitest run: the shell's rc, what it printed and the raw body. */
export interface RestapitestRun {
  readonly rc: number;
  readonly output: string;
  readonly body: string;
}

/** Runs `restapitest -m M -r R [-d D] -u U -p P [-t]` against the emulator at `baseUrl`. */
export async function runRestapitest(baseUrl: string, cmd: string): Promise<RestapitestRun> {
  const args = flags(shellWords(cmd).slice(1));
  const user = args.get("-u") ?? "";
  const password = args.get("-p") ?? "";
  if (!user || !password) return { rc: 1, output: "Userid and password must be supplied\n", body: "" };
  let token: string | undefined;
  if (args.has("-t")) {
    const res = await request(`${baseUrl}/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userName: user, userPW: password }),
    });
    const reply = (await res.body.json()) as { token?: { id?: string } };
    token = reply.token?.id;
  }
  const query = token ? "&pretty=1" : `userName=${user}&userPW=${password}&pretty=1`;
  const headers: Record<string, string> = {};
  if (token) headers["x-auth-token"] = token;
  const data = args.get("-d");
  if (data) headers["content-type"] = "application/json";
  const res = await request(`${baseUrl}${args.get("-r") ?? ""}?${query}`, {
    method: (args.get("-m") ?? "GET") as "GET",
    headers,
    ...(data ? { body: data } : {}),
  });
  const body = await res.body.text();
  const dumped = body.replace(/\\/g, "\\\\").replace(/'/g, "\\'");
  return { rc: res.statusCode % 256, output: `$VAR1 = '${dumped}';\n`, body };
}

/**
 * `restapitest -o EXPECTED -O OP` against the last body: 0 when it holds, 1 otherwise. Both sides
 * become `key:key:value` paths (transf_hash), array elements `element:restapiarray`; each path of
 * the body is compared position by position with the first expected path, a position being equal,
 * a regex match or neither (which ends that path); `==` needs an equal path, `!=` none, `=~` a
 * matching one, `!=~` none matching. An expected text that is not JSON fails the check (the
 * script's own regex parser yields no usable path for it either).
 */
export function checkResult(lastBody: string, cmd: string): number {
  const args = flags(shellWords(cmd).slice(1));
  const op = args.get("-O") ?? "";
  let expected: string | undefined;
  try {
    expected = paths(JSON.parse(args.get("-o") ?? ""))[0];
  } catch {
    return 1;
  }
  if (expected === undefined) return 1;
  let actuals: string[] = [];
  try {
    actuals = paths(JSON.parse(lastBody));
  } catch {
    actuals = [];
  }
  const flag = new Map<string, "eq" | "match" | "none">();
  expected.split(":").forEach((want, position) => {
    for (const actual of actuals) {
      if (flag.get(actual) === "none") continue;
      const have = actual.split(":")[position] ?? "";
      if (want === "restapiarray" && have === "restapiarray") continue;
      if (want === have || want === "ANY") flag.set(actual, "eq");
      else if (matches(have, want)) flag.set(actual, "match");
      else flag.set(actual, "none");
    }
  });
  const seen = (kind: string) => [...flag.values()].includes(kind as "eq");
  if (op === "==") return seen("eq") ? 0 : 1;
  if (op === "!=") return seen("eq") ? 1 : 0;
  if (op === "=~") return seen("match") ? 0 : 1;
  if (op === "!=~") return seen("match") ? 1 : 0;
  return 1;
}

function matches(text: string, pattern: string): boolean {
  try {
    return new RegExp(pattern).test(text);
  } catch {
    return false;
  }
}

function paths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value))
    return value.flatMap((item) =>
      item !== null && typeof item === "object"
        ? paths(item, prefix)
        : [`${prefix}${String(item)}:restapiarray`],
    );
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, inner]) => paths(inner, `${prefix}${key}:`));
  return [`${prefix}${String(value)}`];
}

function flags(words: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    if (word === "-t") out.set("-t", "1");
    else if (word.startsWith("-")) out.set(word, words[++i] ?? "");
  }
  return out;
}
