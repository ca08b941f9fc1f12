/**
 * Adapts the client's object namespaces (client.nodes, client.osimages, …) to the
 * {@link ObjectApi} the attribute-object spec works with.
 */
import type { Attributes, CallOptions, DeleteOptions } from "../client";
import type { ObjectApi } from "./attribute-object";

/** The shape the client's object namespaces share. */
export interface ClientObjectNamespace {
  get(name: string, options?: CallOptions): Promise<Attributes>;
  getMany(names: string | readonly string[]): Promise<Map<string, Attributes>>;
  create(name: string, attrs: Record<string, string>): Promise<void>;
  update(name: string, attrs: Record<string, string>): Promise<void>;
  delete(name: string, options?: DeleteOptions): Promise<void>;
  reportAfterCreate(name: string, sent: Record<string, string>): Promise<Attributes>;
  reportAfterUpdate(
    name: string,
    sent: Record<string, string>,
    before: { recorded: Attributes | undefined; previous: Record<string, string> },
  ): Promise<Attributes>;
  knowsAttribute(attribute: string): Promise<boolean | undefined>;
}

export function objectApi(namespace: ClientObjectNamespace): ObjectApi {
  return {
    get: (name) => namespace.get(name),
    getAll: () => namespace.getMany("ALLRESOURCES"),
    create: (name, attributes) => namespace.create(name, attributes),
    reportAfterCreate: (name, attributes) => namespace.reportAfterCreate(name, attributes),
    update: (name, attributes) => namespace.update(name, attributes),
    reportAfterUpdate: (name, attributes, before) => namespace.reportAfterUpdate(name, attributes, before),
    delete: (name) => namespace.delete(name, { ignoreMissing: true }),
    knowsAttribute: (attribute) => namespace.knowsAttribute(attribute),
  };
}
