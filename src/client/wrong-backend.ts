/**
 * A URL of the other server: xCAT's client pointed at Confluent's API, or Confluent's client at
 * xCAT's xcatws. Each server answers the other's requests in a way of its own, so the failure
 * says which server it reached instead of blaming the password:
 *
 * - Confluent answers every request without its credentials (xcatws's userName/userPW query or
 *   X-Auth-Token are none of its) with 401 `authentication required` and
 *   `WWW-Authenticate: Basic realm="confluent"` (real-confluent.md item 5; httpapi.py 3.15.6).
 *   xcatws never sends that header: its 401 is JSON `{"error":"Authentication failure",
 *   "errorcode":"2"}` (xcat-behavior.md §3.1, §4.1).
 * - xcatws answers with JSON carrying `errorcode` (`{"error":"Unsupported resource.",
 *   "errorcode":"2"}` for Confluent's `/sessions/current/info`, xcat-behavior.md §1.5);
 *   Confluent's handled errors are `{"error": "<Category> - <detail>"}` without one
 *   (real-confluent.md item 3).
 */

/** The sentence for an xCAT request answered by Confluent; undefined when the answer is not Confluent's. */
export function confluentAnsweredXcat(
  status: number,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  url: string,
): string | undefined {
  if (status !== 401) return undefined;
  const challenge = headers["www-authenticate"];
  const values = Array.isArray(challenge) ? challenge : challenge === undefined ? [] : [challenge];
  if (!values.some((value) => /realm="?confluent"?/i.test(value))) return undefined;
  return (
    `${url} is a Confluent server's API, not xCAT's xcatws: it answered 401 with ` +
    `WWW-Authenticate: Basic realm="confluent", which only Confluent sends. For Confluent set ` +
    "xcat:backend confluent (XCAT_BACKEND=confluent; pulumi-xcat import --backend confluent)"
  );
}

/** The sentence for a Confluent request answered by xcatws; undefined when the answer is not xcatws's. */
export function xcatwsAnsweredConfluent(status: number, text: string, url: string): string | undefined {
  if (status < 400) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof body !== "object" || body === null) return undefined;
  const { error, errorcode } = body as { error?: unknown; errorcode?: unknown };
  if (errorcode === undefined || error === undefined) return undefined;
  const said = Array.isArray(error) ? String(error[0] ?? "") : String(error);
  return (
    `${url} is xCAT's REST API (xcatws), not Confluent's: it answered ${status} "${said}" with an errorcode ` +
    `(${String(errorcode)}), as xcatws does and Confluent never does. For xCAT leave xcat:backend unset or ` +
    "set it to xcat (pulumi-xcat import without --backend confluent)"
  );
}
