/**
 * Failures raised by the web layer itself (xcatws.cgi `error()`, xcat-behavior.md §3.1) and by
 * Apache in front of it. Command failures come from the store as CommandError.
 */
import {
  ALLRESOURCES_GET_ONLY,
  AUTHENTICATION_FAILURE,
  LACK_OF_OPERATION_DATA,
  LACK_OF_OPERATION_DATA_ERRORCODE,
  MISSED_ACTION,
  UNSUPPORTED_RESOURCE,
} from "../../contract/messages";

/** `{"error":"<one string>","errorcode":"2"}` with a status of its own. */
export class WebError extends Error {
  readonly status: number;
  readonly errorcode: string | number;

  constructor(status: number, message: string, errorcode: string | number = "2") {
    super(message);
    this.name = "WebError";
    this.status = status;
    this.errorcode = errorcode;
  }
}

/** An error page produced by Apache, not by the CGI: HTML, not JSON. */
export class ApacheError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "ApacheError";
    this.status = status;
  }
}

export const authenticationFailure = () => new WebError(401, AUTHENTICATION_FAILURE);
export const unsupportedResource = () => new WebError(404, UNSUPPORTED_RESOURCE);
export const missedAction = () => new WebError(404, MISSED_ACTION);
export const allResourcesGetOnly = () => new WebError(404, ALLRESOURCES_GET_ONLY);
export const lackOfOperationData = () =>
  new WebError(400, LACK_OF_OPERATION_DATA, LACK_OF_OPERATION_DATA_ERRORCODE);
/** The Perl script dies (non-array `scripts`/`src`, non-object `options`): Apache answers 500. */
export const internalServerError = () => new ApacheError(500, "Internal Server Error");

const REASONS: Record<number, string> = {
  404: "Not Found",
  413: "Request Entity Too Large",
  500: "Internal Server Error",
};

const EXPLANATIONS: Record<number, string> = {
  404: "<p>The requested URL was not found on this server.</p>",
  413: "<p>The requested resource does not allow request data with POST requests, or the amount of data provided in\nthe request exceeds the capacity limit.</p>",
  // With no ServerAdmin configured, as on the real 2.19's Apache (2.4.71).
  500: "<p>The server encountered an internal error or\nmisconfiguration and was unable to complete\nyour request.</p>\n<p>Please contact the server administrator at \n [no address given] to inform them of the time this error occurred,\n and the actions you performed just before this error.</p>\n<p>More information about this error may be available\nin the server error log.</p>",
};

/** Apache's default error document for a status, as Apache 2.4.71 writes it (HTML 4.01). */
export function apachePage(status: number): string {
  const reason = REASONS[status] ?? "Error";
  return `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">\n<html><head>\n<title>${status} ${reason}</title>\n</head><body>\n<h1>${reason}</h1>\n${EXPLANATIONS[status] ?? ""}\n</body></html>\n`;
}
