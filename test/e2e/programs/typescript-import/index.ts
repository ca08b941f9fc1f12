// One stack with both APIs, for test/e2e/typescript-import.test.ts: a node through the dynamic
// classes (pulumi-xcat) and a group through the native ones (pulumi-xcat/native, served by
// pulumi-resource-xcat). The test adds the files `pulumi import` writes (imported-*.ts) and the
// lines below that load them, as a user pastes the code the engine prints.
import * as xcat from "pulumi-xcat";
import * as xcatNative from "pulumi-xcat/native";

new xcat.Node("dyn01", { groups: ["compute", "all"], attributes: { mgt: "ipmi", ip: "10.0.0.10" } });
new xcatNative.Group("natgrp", { attributes: { mgt: "ipmi", netboot: "xnba" } });
