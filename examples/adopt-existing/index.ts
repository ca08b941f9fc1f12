// A cluster that existed before Pulumi: objects defined by hand with mkdef are taken under
// management without being re-created.
//
// - `adopt: true` takes an existing object whose values differ and makes the declared attributes
//   match the program; attributes the program does not declare are left as they are. Without
//   adopt, Pulumi would refuse (an identical object is taken either way).
// - `Resource.get` reads an object without managing it: destroy leaves it alone.
import * as pulumi from "@pulumi/pulumi";
import * as xcat from "pulumi-xcat";

// The legacy rack's BMC account, set once on its group (stack config bmcPassword, secret).
const legacyRack = new xcat.Group("legacy", {
  attributes: {
    mgt: "ipmi",
    bmcusername: "ADMIN",
    bmcpassword: new pulumi.Config().requireSecret("bmcPassword"),
  },
});

// Racked and defined by hand years ago; the program now owns its addresses.
const legacyNode = new xcat.Node(
  "legacy01",
  {
    groups: ["legacy", "all"],
    attributes: { mgt: "ipmi", ip: "10.9.0.1", bmc: "10.9.1.1" },
    adopt: true,
  },
  { dependsOn: [legacyRack] },
);

const legacyNet = new xcat.Network("legacy-net", {
  net: "10.9.0.0",
  mask: "255.255.0.0",
  attributes: { gateway: "10.9.0.254", mgtifname: "eth2" },
  adopt: true,
});

// The site's golden image stays in the hands of whoever maintains it; the program only reads it.
const siteImage = xcat.Osimage.get("site-image", "rhels8.8-x86_64-install-compute");

export const legacyNodeAttributes = legacyNode.allAttributes;
export const legacyNetGateway = legacyNet.attributes.apply((a) => a.gateway);
export const siteImageProfile = siteImage.attributes.apply((a) => a.profile);
export const siteImageVersion = siteImage.attributes.apply((a) => a.osvers);
