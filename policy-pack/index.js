// The pulumi-xcat policy pack: `pulumi preview --policy-pack node_modules/pulumi-xcat/policy-pack`.
// The rules are compiled with the package (src/policy); this folder only tells Pulumi where they are.
require("../dist/policy/main.js");
