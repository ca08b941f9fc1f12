/**
 * The seam between backends: one dynamic-provider implementation per resource kind and backend,
 * and the choice between them per call, by the resource's `connection.backend` or else the
 * stack's `xcat:backend` (env XCAT_BACKEND), xcat by default. Neither backend's code knows the
 * other's; runtime.ts pairs them.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { BackendName } from "./config";
import { processSettings } from "./process-settings";
import { isPlainObject } from "./validation";

type Implementation = pulumi.dynamic.ResourceProvider;

/** The backend of a resource: its connection's `backend`, else the stack's, else xcat. */
export function backendOf(props: unknown): BackendName {
  const connection = isPlainObject(props) ? props.connection : undefined;
  const named = isPlainObject(connection) ? connection.backend : undefined;
  const own = named === "xcat" || named === "confluent" ? named : undefined;
  return own ?? processSettings().connection?.backend ?? "xcat";
}

/** One implementation that sends each call to the implementation of the resource's backend. */
export function byBackend(implementations: Readonly<Record<BackendName, Implementation>>): Implementation {
  const of = (props: unknown) => implementations[backendOf(props)];
  return {
    // Both share the process settings: either records them.
    configure: async (req) => implementations.xcat.configure?.(req),
    check: async (olds, news) => {
      const chosen = of(news);
      return chosen.check ? chosen.check(olds, news) : { inputs: news };
    },
    diff: async (id, olds, news) => {
      const chosen = of(news);
      return chosen.diff ? chosen.diff(id, olds, news) : {};
    },
    create: async (inputs) => of(inputs).create(inputs),
    read: async (id, props) => {
      const chosen = of(props);
      return chosen.read ? chosen.read(id, props) : { id, props };
    },
    update: async (id, olds, news) => {
      const chosen = of(news);
      return chosen.update ? chosen.update(id, olds, news) : { outs: news };
    },
    delete: async (id, props) => of(props).delete?.(id, props),
  };
}
