/**
 * pulumi-xcat/testing: scaffolding for the project's own toolchain checks, not part of the API.
 * `Echo` is a dynamic resource that talks to no xCAT at all: the e2e smoke test uses it to prove
 * the engine, the language host and the thin provider work before any xCAT resource is tried.
 *
 * @packageDocumentation
 */
export { Echo, type EchoArgs } from "./provider/resources/echo-resource";
