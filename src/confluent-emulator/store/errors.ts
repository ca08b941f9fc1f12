/**
 * Failures the store raises, named after the Python exceptions Confluent raises for them, so the
 * HTTP layer answers exactly as Confluent does: ConfluentApiError is a handled error
 * (exceptions.py: status and `<Category> - <detail>`); PythonError (python-format.ts) is an
 * unhandled one (500 with the bare message).
 */
import { CONFLUENT_ERROR_CATEGORIES, type ConfluentErrorKind } from "../../contract/confluent/messages";

export class ConfluentApiError extends Error {
  readonly status: number;
  readonly category: string;
  readonly detail: string;

  constructor(kind: ConfluentErrorKind, detail = "") {
    const { status, category } = CONFLUENT_ERROR_CATEGORIES[kind];
    super(`${category} - ${detail}`);
    this.status = status;
    this.category = category;
    this.detail = detail;
  }
}

export const badRequest = (detail = "") => new ConfluentApiError("badRequest", detail);
export const notFound = (detail = "") => new ConfluentApiError("notFound", detail);
