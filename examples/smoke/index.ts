// The smallest program that exercises the whole path: the Pulumi engine, the Node.js language
// host, and a dynamic resource whose serialized provider delegates to the installed pulumi-xcat.
import * as pulumi from "@pulumi/pulumi";
// Echo is test scaffolding, kept out of the package root: it lives at pulumi-xcat/testing.
import { Echo } from "pulumi-xcat/testing";

const config = new pulumi.Config();
const message = config.get("message") ?? "hello from pulumi-xcat";

const probe = new Echo("toolchain-check", { message });

export const echoed = probe.message;
export const length = probe.length;
