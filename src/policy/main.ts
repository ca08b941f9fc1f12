/**
 * The entry point of the policy pack shipped at `policy-pack/` (its index.js requires this file):
 * `pulumi preview --policy-pack node_modules/pulumi-xcat/policy-pack`. Constructing the PolicyPack
 * starts the analyzer server the Pulumi engine talks to, so nothing else imports this module.
 */
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

new PolicyPack("pulumi-xcat", {
  description:
    "Cluster-wide rules for xCAT stacks: unique addresses, nodes in declared networks, declared images, one Deployment and one PowerState per node.",
  enforcementLevel: "mandatory",
  policies: [...policies],
});
