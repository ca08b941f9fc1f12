"""The lab (examples/lab-yaml) as a Python program on the native provider pulumi-resource-xcat.

Running it needs Pulumi's Python language host and the `pulumi` Python package (an official
Pulumi installation provides both) and the generated SDK `pulumi_xcat` on the Python path.

    pulumi config set bmcPassword <password>      # made a secret below with pulumi.Output.secret
    pulumi config set xcat:url https://<management node>/xcatws
    pulumi config set xcat:username <account>
    pulumi config set --secret xcat:password <password>
"""

import pulumi
import pulumi_xcat as xcat

config = pulumi.Config()
domain = config.get("domain") or "lab.example.org"
compute_os = config.get("computeOs") or "rhels9.4"
deploy_timeout = config.get_int("deployTimeout") or 60
poll_seconds = config.get_int("pollSeconds") or 10
bmc_secret = pulumi.Output.secret(config.require("bmcPassword"))

# --- Networks: management (provisioning) and the BMCs' out-of-band network
mgmt = xcat.Network(
    "mgmt",
    net="10.0.0.0",
    mask="255.255.0.0",
    attributes={
        "mgtifname": "eth0",
        "gateway": "10.0.0.254",
        "dhcpserver": "10.0.0.1",
        "tftpserver": "10.0.0.1",
        "nameservers": "10.0.0.1",
        "domain": domain,
        "dynamicrange": "10.0.255.1-10.0.255.250",
    },
)
bmc = xcat.Network("bmc", net="10.1.0.0", mask="255.255.0.0", attributes={"mgtifname": "eth1"})

# --- Site settings
xcat.GlobalConfAttribute("domain-setting", name="domain", value=domain)
xcat.GlobalConfAttribute("nameservers", value="10.0.0.1")
xcat.GlobalConfAttribute("tokenexpiredays", value="7")

# --- OS images: a stateful install image for service nodes, a stateless one for compute
install_image = xcat.Osimage(
    "installImage",
    name="rhels9.4-x86_64-install-service",
    attributes={
        "imagetype": "linux",
        "provmethod": "install",
        "profile": "service",
        "osname": "Linux",
        "osvers": "rhels9.4",
        "osarch": "x86_64",
        "osdistroname": "rhels9.4-x86_64",
        "template": "/opt/xcat/share/xcat/install/rh/service.rhels9.x86_64.tmpl",
        "pkglist": "/opt/xcat/share/xcat/install/rh/service.rhels9.x86_64.pkglist",
        "pkgdir": "/install/rhels9.4/x86_64",
    },
)
netboot_image = xcat.Osimage(
    "netbootImage",
    name=f"{compute_os}-x86_64-netboot-compute",
    attributes={
        "imagetype": "linux",
        "provmethod": "netboot",
        "profile": "compute",
        "osname": "Linux",
        "osvers": compute_os,
        "osarch": "x86_64",
        "osdistroname": f"{compute_os}-x86_64",
        "pkglist": "/opt/xcat/share/xcat/netboot/rh/compute.rhels9.x86_64.pkglist",
        "pkgdir": f"/install/{compute_os}/x86_64",
        "rootimgdir": f"/install/netboot/{compute_os}/x86_64/compute",
    },
)

# --- Groups: what member nodes inherit
compute = xcat.Group(
    "compute",
    attributes={
        "mgt": "ipmi",
        "arch": "x86_64",
        "netboot": "xnba",
        "installnic": "mac",
        "primarynic": "mac",
        "provmethod": netboot_image.name,
        "bmcusername": "ADMIN",
    },
)
service = xcat.Group(
    "service",
    attributes={
        "mgt": "ipmi",
        "arch": "x86_64",
        "netboot": "xnba",
        "provmethod": install_image.name,
        "bmcusername": "ADMIN",
        "bmcpassword": bmc_secret,
    },
)

# --- Compute nodes: rack 1, slot s -> r01n0s at 10.0.1.s, BMC 10.1.1.s
compute_nodes = [
    xcat.Node(
        f"r01n{slot:02d}",
        groups=["compute", "rack01", "all"],
        attributes={
            "ip": f"10.0.1.{slot}",
            "mac": f"52:54:00:00:01:{slot:02x}",
            "bmc": f"10.1.1.{slot}",
            "bmcpassword": bmc_secret,
            "rack": "01",
            "unit": str(slot),
            "room": "lab",
        },
        opts=pulumi.ResourceOptions(depends_on=[compute, mgmt, bmc]),
    )
    for slot in range(1, 5)
]

# --- Service and login nodes
for i, (name, ip, groups) in enumerate(
    [("svc01", "10.0.0.10", ["service", "all"]), ("login01", "10.0.0.20", ["service", "login", "all"])]
):
    xcat.Node(
        name,
        groups=groups,
        attributes={
            "ip": ip,
            "mac": f"52:54:00:00:00:{0x10 + i:02x}",
            "bmc": f"10.1.0.{10 + i}",
            "bmcpassword": bmc_secret,
            "room": "lab",
        },
        opts=pulumi.ResourceOptions(depends_on=[service, mgmt, bmc]),
    )

# --- A KVM host and its VMs
kvm_host = xcat.Node(
    "kvmhost01",
    groups=["hypervisors", "all"],
    attributes={"mgt": "ipmi", "ip": "10.0.0.30", "bmc": "10.1.0.30", "bmcpassword": bmc_secret, "hosttype": "kvm"},
    opts=pulumi.ResourceOptions(depends_on=[mgmt, bmc]),
)
for i in (1, 2):
    vm_node = xcat.Node(
        f"vm{i:02d}-node",
        name=f"vm{i:02d}",
        groups=["vms", "all"],
        attributes={
            "mgt": "kvm",
            "vmhost": kvm_host.name,
            "ip": f"10.0.0.{100 + i}",
            "mac": f"52:54:00:01:00:{i:02x}",
            "provmethod": install_image.name,
        },
        opts=pulumi.ResourceOptions(depends_on=[mgmt]),
    )
    xcat.VirtualMachine(f"vm{i:02d}", node=vm_node.name, cpus=2, memory_mi_b=4096, disks_gi_b=[40])

# --- Provisioning: the compute image deployed on the rack in one batch, then held on
compute_names = [node.name for node in compute_nodes]
compute_image = xcat.Deployment(
    "compute-image",
    nodes=compute_names,
    osimage=netboot_image.name,
    batch_size=4,
    concurrency=1,
    timeout_minutes=deploy_timeout,
    poll_seconds=poll_seconds,
    opts=pulumi.ResourceOptions(depends_on=compute_nodes),
)
compute_power = xcat.PowerState(
    "compute-power",
    nodes=compute_names,
    power="on",
    opts=pulumi.ResourceOptions(depends_on=[compute_image]),
)

# --- Access and routing
ops_account = xcat.Policy(
    "ops-account",
    priority="7",
    attributes={
        "name": "ops",
        "rule": "allow",
        "commands": "lsdef,nodels,rpower,rinv,rvitals",
        "usercomment": "operations team",
    },
)
route_storage = xcat.TableRow(
    "route-storage",
    table="routes",
    keys={"routename": "storage"},
    values={"net": "10.2.0.0", "mask": "255.255.0.0", "gateway": "10.0.0.254", "ifname": "eth0"},
)

pulumi.export("images", {"install": install_image.name, "netboot": netboot_image.name})
pulumi.export("networks", {"management": mgmt.name, "bmc": bmc.name})
pulumi.export("opsPolicyPriority", ops_account.name)
pulumi.export("route", route_storage.name)
pulumi.export("firstComputeNode", compute_nodes[0].all_attributes)
pulumi.export("computeStates", compute_image.node_states)
pulumi.export("computePower", compute_power.power_states)
