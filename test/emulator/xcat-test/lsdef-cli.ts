/**
 * The `lsdef` command some REST cases run on the management node to check what a request did
 * (restapi/table/cases0). xcatd answers lsdef from the same objects the REST service reads, so
 * this asks the emulator through REST and prints what the xCAT client prints: `Object name: x`
 * and `    attr=value` lines, objects and attributes sorted (DBobjectdefs.pm:4106-4200), and
 * errors as `Error: [<server>]: <message>` on stderr, exit code 1 (Client.pm:1152-1180).
 * Only the forms the cases use: `lsdef [-l] -t <type> [names]`.
 */
import { request } from "undici";
import type { CommandRun } from "./restapitest";

/** REST collection of each object type lsdef is asked about. */
const COLLECTIONS: Readonly<Record<string, string>> = {
  node: "nodes",
  network: "networks",
  osimage: "osimages",
  group: "groups",
  policy: "policy",
};

/** Runs `lsdef <args>` against the emulator at `baseUrl` as `account`. */
export async function runLsdef(
  baseUrl: string,
  args: readonly string[],
  account: { user: string; password: string },
): Promise<CommandRun> {
  let type = "node";
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i] ?? "";
    if (word === "-t") type = args[++i] ?? "";
    else if (word === "-o") names.push(...(args[++i] ?? "").split(","));
    else if (!word.startsWith("-")) names.push(...word.split(","));
  }
  const collection = COLLECTIONS[type];
  if (!collection) throw new Error(`lsdef -t ${type} is not reproduced here`);
  const get = async (path: string) => {
    const auth = `userName=${encodeURIComponent(account.user)}&userPW=${encodeURIComponent(account.password)}`;
    const reply = await request(`${baseUrl}/${path}?${auth}`);
    return { status: reply.statusCode, json: (await reply.body.json()) as unknown };
  };
  let wanted = names;
  if (wanted.length === 0) {
    const list = await get(collection);
    wanted = Array.isArray(list.json) ? (list.json as string[]) : [];
    if (wanted.length === 1 && wanted[0] === "Could not find any object definitions to display.")
      return { rc: 0, output: `${wanted[0]}\n` };
  }
  const reply = await get(`${collection}/${wanted.join(",")}`);
  const body = reply.json as Record<string, unknown>;
  if (reply.status !== 200) {
    const errors = Array.isArray(body.error) ? (body.error as string[]) : [String(body.error)];
    return { rc: 1, output: errors.map((e) => `Error: [xcatmn]: ${e}\n`).join("") };
  }
  const lines: string[] = [];
  for (const name of Object.keys(body).sort()) {
    lines.push(`Object name: ${name}`);
    const attributes = body[name] as Record<string, string>;
    for (const attribute of Object.keys(attributes).sort())
      lines.push(`    ${attribute}=${attributes[attribute]}`);
  }
  return { rc: 0, output: lines.map((l) => `${l}\n`).join("") };
}
