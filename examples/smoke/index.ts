// The smallest program that exercises the whole path: the Pulumi engine, the Node.js language
// host, and a dynamic resource whose serialized provider delegates to the installed pulumi-xcat.
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

const config = new pulumi.Config();
const message = config.get("message") ?? "hello from pulumi-xcat";

const probe = new xcat.Echo("toolchain-check", { message });

export const echoed = probe.message;
export const length = probe.length;
