/**
 * A URL of the other server (issue #36 item 9): xCAT's client pointed at Confluent's API and
 * Confluent's client at xCAT's xcatws each fail with a sentence naming the server they reached,
 * taken from how that server answered, never as a wrong password; `pulumi-xcat import` says the
 * same. Both emulators answer as their servers do (Confluent: 401 with `WWW-Authenticate: Basic
 * realm="confluent"`, real-confluent.md item 5; xcatws: 404 `{"error":"Unsupported resource.",
 * "errorcode":"2"}` for a path it does not serve, xcat-behavior.md §1.5).
 */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run as importCluster } from "../../src/cli/import/run";
import { isAuthError, isUsageError, XcatClient } from "../../src/client";
import { ConfluentClient } from "../../src/client/confluent";
import { confluentAnsweredXcat, xcatwsAnsweredConfluent } from "../../src/client/wrong-backend";
import { type RunningConfluentEmulator, startConfluentEmulator } from "../../src/confluent-emulator";
import { type RunningEmulator, startEmulator } from "../../src/emulator";

let confluent: RunningConfluentEmulator;
let xcat: RunningEmulator;

beforeAll(async () => {
  confluent = await startConfluentEmulator({ password: "confluent-pw" });
  xcat = await startEmulator({ password: "xcat-pw" });
});

afterAll(async () => {
  await confluent?.close();
  await xcat?.close();
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a failure");
}

describe("the answer tells which server it came from", () => {
  it("only Confluent's 401 challenge counts as Confluent; xcatws's JSON with an errorcode as xcatws", () => {
    const url = "https://mn/confluent-api";
    expect(confluentAnsweredXcat(401, { "www-authenticate": 'Basic realm="confluent"' }, url)).toContain(
      "Confluent server's API",
    );
    expect(confluentAnsweredXcat(401, {}, url)).toBeUndefined(); // xcatws's own 401
    expect(
      confluentAnsweredXcat(403, { "www-authenticate": 'Basic realm="confluent"' }, url),
    ).toBeUndefined();
    expect(xcatwsAnsweredConfluent(404, '{"error":"Unsupported resource.","errorcode":"2"}', url)).toContain(
      "xCAT's REST API (xcatws)",
    );
    // Confluent's own errors carry no errorcode; an HTML 404 says nothing either way.
    expect(xcatwsAnsweredConfluent(404, '{"error": "Target not found - Invalid Node"}', url)).toBeUndefined();
    expect(xcatwsAnsweredConfluent(404, "<html>Not Found</html>", url)).toBeUndefined();
  });
});

describe("a client at the other server", () => {
  it("xCAT's client at a Confluent URL fails naming Confluent, not the password", async () => {
    const client = new XcatClient({ url: confluent.url, username: "root", password: "confluent-pw" });
    const error = await failure(client.nodes.getMany("ALLRESOURCES"));
    await client.close();
    expect(isUsageError(error)).toBe(true);
    expect(isAuthError(error)).toBe(false);
    expect(error.message).toContain(`${confluent.url} is a Confluent server's API, not xCAT's xcatws`);
    expect(error.message).toContain("xcat:backend confluent");
    expect(error.message).not.toContain("check the username");
    expect(error.message).not.toContain("confluent-pw");
  });

  it("Confluent's client at an xcatws URL fails naming xcatws", async () => {
    const client = new ConfluentClient({ url: xcat.url, username: "root", password: "xcat-pw" });
    const error = await failure(client.verifyConnection());
    await client.close();
    expect(isUsageError(error)).toBe(true);
    expect(error.message).toContain(`${xcat.url} is xCAT's REST API (xcatws), not Confluent's`);
    expect(error.message).toContain('"Unsupported resource."');
    expect(error.message).not.toContain("xcat-pw");
  });
});

describe("pulumi-xcat import at the other server", () => {
  let out: string;
  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), "pulumi-xcat-wrong-backend-"));
  });
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  const withPassword = async (password: string, argv: string[]) => {
    process.env.XCAT_PASSWORD = password;
    try {
      return await failure(importCluster(argv));
    } finally {
      delete process.env.XCAT_PASSWORD;
    }
  };

  it("the xCAT import of a Confluent URL says it is Confluent's and how to import it, and writes nothing", async () => {
    const error = await withPassword("confluent-pw", [
      ...["--url", confluent.url, "--username", "root", "--out", join(out, "a")],
    ]);
    expect(error.message).toContain("is a Confluent server's API");
    expect(error.message).toContain("--backend confluent");
    expect(await readdir(out)).toEqual([]);
  });

  it("names the URL as the user gave it, not with the /xcatws the client adds", async () => {
    const origin = new URL(confluent.url).origin;
    const error = await withPassword("confluent-pw", [
      ...["--url", origin, "--username", "root", "--out", join(out, "c")],
    ]);
    expect(error.message).toContain(`${origin} is a Confluent server's API, not xCAT's xcatws`);
    expect(error.message).not.toContain("/xcatws is");
    expect(await readdir(out)).toEqual([]);
  });

  it("the Confluent import of an xcatws URL says it is xCAT's", async () => {
    const error = await withPassword("xcat-pw", [
      ...["--backend", "confluent", "--url", xcat.url, "--username", "root", "--out", join(out, "b")],
    ]);
    expect(error.message).toContain("is xCAT's REST API (xcatws), not Confluent's");
    expect(error.message).toContain("without --backend confluent");
    expect(await readdir(out)).toEqual([]);
  });
});
