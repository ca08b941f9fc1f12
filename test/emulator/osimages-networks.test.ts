/**
 * Osimages and networks (xcat-behavior.md §1.2, §3.2, §5.4, §5.5, §9.3, §9.4).
 */
import { describe, expect, it } from "vitest";
import { ObjectAttributeMaps } from "../../src/contract/envelope";
import { call, useEmulator } from "./helpers";

describe("osimages", () => {
  const env = useEmulator();

  it("empty list is the one-message array (§9.3)", async () => {
    expect((await call(env.xcat, "GET", "/osimages")).json).toEqual([
      "Could not find any object definitions to display.",
    ]);
  });

  it("POST /osimages needs iso or file: 404 Invalid source. (§1.2)", async () => {
    const reply = await call(env.xcat, "POST", "/osimages", { body: {} });
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ error: "Invalid source.", errorcode: "2" });
  });

  it("copycds from an ISO creates the images xCAT defines for it (§1.2, SvrUtils.pm:744-1384)", async () => {
    const reply = await call(env.xcat, "POST", "/osimages", {
      body: { iso: "/isos/RHEL-8.8.0-20230411.3-x86_64-dvd1.iso" },
    });
    expect(reply.status).toBe(201);
    expect((await call(env.xcat, "GET", "/osimages")).json).toEqual([
      "rhels8.8-x86_64-install-compute",
      "rhels8.8-x86_64-install-service",
      "rhels8.8-x86_64-netboot-compute",
      "rhels8.8-x86_64-statelite-compute",
    ]);
    const image = ObjectAttributeMaps.parse(
      (await call(env.xcat, "GET", "/osimages/rhels8.8-x86_64-install-compute")).json,
    );
    expect(image["rhels8.8-x86_64-install-compute"]).toMatchObject({
      imagetype: "linux",
      osarch: "x86_64",
      osvers: "rhels8.8",
    });
  });

  it("copycds of a file the MN does not hold is refused before anything is read (copycds.pm master:143-150; as the real 2.19 answered)", async () => {
    const reply = await call(env.xcat, "POST", "/osimages", { body: { iso: "/tmp/nosuch.iso" } });
    expect([reply.status, reply.json]).toEqual([
      403,
      {
        error: [
          "The management server was unable to find/read /tmp/nosuch.iso. Ensure that file exists on the server at the specified location.",
        ],
        errorcode: "1",
      },
    ]);
  });

  it("genimage and packimage of an image with no linuximage row, and genimage without a pkglist, are refused (genimage.pm master:146-175, packimage.pm:159-175)", async () => {
    // The attributes of this image all live in the osimage table: the real 2.19 answered so.
    await call(env.xcat, "PUT", "/osimages/bare", {
      body: {
        imagetype: "linux",
        provmethod: "netboot",
        osvers: "rhels9.4",
        osarch: "x86_64",
        profile: "compute",
      },
    });
    for (const action of ["gen", "pack"]) {
      const reply = await call(env.xcat, "POST", "/osimages/bare/instance", { body: { action } });
      expect([reply.status, reply.json]).toEqual([
        403,
        { error: ["Cannot find bare from the linuximage table."], errorcode: "1" },
      ]);
    }
    // rmimage then finds no image directory, as on the real 2.19.
    const rm = await call(env.xcat, "DELETE", "/osimages/bare/instance");
    expect(rm.json).toEqual({
      error: ["Image directory /install/netboot/rhels9.4/x86_64/compute does not exist"],
      errorcode: "1",
    });
    await call(env.xcat, "PUT", "/osimages/bare", { body: { rootimgdir: "/install/netboot/bare" } });
    const noPkglist = await call(env.xcat, "POST", "/osimages/bare/instance", { body: { action: "gen" } });
    expect(noPkglist.json).toEqual({
      error: ["A .pkglist file must be specified for image 'bare' in the linuximage table."],
      errorcode: "1",
    });
    await call(env.xcat, "DELETE", "/osimages/bare");
  });

  it("POST of an existing image is 403; PUT of a new one without imagetype gets NIM (§5.4, §9.4)", async () => {
    const again = await call(env.xcat, "POST", "/osimages/rhels8.8-x86_64-install-compute", {
      body: { profile: "x" },
    });
    expect(again.status).toBe(403);
    expect(again.json).toEqual({
      error: ["0 object definitions have been created or modified."],
      errorcode: "1",
    });
    await call(env.xcat, "PUT", "/osimages/aix1", { body: { description: "aix" } });
    expect(env.xcat.state.getObject("osimage", "aix1")).toEqual({ description: "aix", imagetype: "NIM" });
    const linuxOnly = await call(env.xcat, "PUT", "/osimages/aix1", { body: { template: "/x.tmpl" } });
    expect(linuxOnly.status).toBe(403);
  });

  it("instance gen/pack/export answer the raw xcatd messages with 201 (§1.2)", async () => {
    const img = "rhels8.8-x86_64-netboot-compute";
    expect((await call(env.xcat, "POST", `/osimages/${img}/instance`, { body: {} })).json).toEqual({
      error: "Missed Action.",
      errorcode: "2",
    });
    const bad = await call(env.xcat, "POST", `/osimages/${img}/instance`, { body: { action: "burn" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "Incorrect action:burn.", errorcode: "2" });
    const pack = await call(env.xcat, "POST", `/osimages/${img}/instance`, { body: { action: "pack" } });
    expect(pack.status).toBe(403);
    const gen = await call(env.xcat, "POST", `/osimages/${img}/instance`, { body: { action: "gen" } });
    expect(gen.status).toBe(201);
    expect(gen.json).toEqual([{ info: expect.any(Array), xcatdsource: ["xcatmn"] }]);
    expect(
      (await call(env.xcat, "POST", `/osimages/${img}/instance`, { body: { action: "pack" } })).status,
    ).toBe(201);
    expect((await call(env.xcat, "DELETE", `/osimages/${img}/instance`)).status).toBe(200);
  });

  it("rmimage finds the image directory as rmimage.pm:94-179 does; packimage refuses statelite images", async () => {
    // No copycds image is a diskless service image; rmimage derives the directory from the name.
    const missing = await call(env.xcat, "DELETE", "/osimages/rhels8.8-x86_64-statelite-service/instance");
    expect(missing.status).toBe(403);
    expect(missing.json).toEqual({
      error: ["Image directory /install/netboot/rhels8.8/x86_64/service does not exist"],
      errorcode: "1",
    });
    const install = await call(env.xcat, "DELETE", "/osimages/rhels8.8-x86_64-install-compute/instance");
    expect(install.json).toEqual({
      error: [
        'Invalid method "install", the rmimage command can only be used to remove the netboot, statelite, sysclone or raw image files',
      ],
      errorcode: "1",
    });
    const lite = "rhels8.8-x86_64-statelite-compute";
    // packimage.pm:177-180: only netboot images are packed.
    expect(
      (await call(env.xcat, "POST", `/osimages/${lite}/instance`, { body: { action: "pack" } })).json,
    ).toEqual({
      error: [
        "'rhels8.8-x86_64-statelite-compute' cannot be used to build diskless image. Make sure osimage.provmethod is 'netboot'.",
      ],
      errorcode: "1",
    });
    // The netboot and statelite images of a profile share /install/netboot/<os>/<arch>/compute.
    expect(
      (await call(env.xcat, "POST", `/osimages/${lite}/instance`, { body: { action: "gen" } })).status,
    ).toBe(201);
    const removed = await call(env.xcat, "DELETE", "/osimages/rhels8.8-x86_64-netboot-compute/instance");
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual([
      {
        info: [
          "Removing directory /install/netboot/rhels8.8/x86_64/compute/rootimg",
          "Image files have been removed successfully from this management node.",
        ],
        xcatdsource: ["xcatmn"],
      },
    ]);
    const unknown = await call(env.xcat, "POST", "/osimages/nosuch-image/instance", {
      body: { action: "gen" },
    });
    expect(unknown.json).toEqual({
      error: ["Cannot find image 'nosuch-image' from the osimage table."],
      errorcode: "1",
    });
  });

  it("DELETE removes the image; again is 403 not found (§3.2)", async () => {
    expect((await call(env.xcat, "DELETE", "/osimages/aix1")).status).toBe(200);
    const again = await call(env.xcat, "DELETE", "/osimages/aix1");
    expect(again.json).toEqual({
      error: ["Could not find an object named 'aix1' of type 'osimage'."],
      errorcode: "1",
    });
  });
});

describe("networks", () => {
  const env = useEmulator();

  it("empty list, then makenetworks from the MN's interfaces (§5.5, §9.3)", async () => {
    expect((await call(env.xcat, "GET", "/networks")).json).toEqual([
      "Could not find any object definitions to display.",
    ]);
    expect((await call(env.xcat, "POST", "/networks", { body: {} })).status).toBe(201);
    expect((await call(env.xcat, "GET", "/networks")).json).toEqual([
      "10_0_0_0-255_255_0_0",
      "192_168_122_0-255_255_255_0",
    ]);
  });

  it("create needs net and mask; duplicates are refused (§3.2, §9.4)", async () => {
    const noMask = await call(env.xcat, "POST", "/networks/net1", { body: { net: "10.5.0.0" } });
    expect(noMask.json).toEqual({
      error: [
        "Net or mask value should not be empty for xCAT network object 'net1'.",
        "One or more errors occured when attempting to create or modify xCAT object definitions.",
        "Failed with unknown reason.",
      ],
      errorcode: "1",
    });
    expect(
      (
        await call(env.xcat, "POST", "/networks/net1", {
          body: { net: "10.5.0.0", mask: "255.255.0.0", gateway: "10.5.0.1" },
        })
      ).status,
    ).toBe(201);
    const again = await call(env.xcat, "POST", "/networks/net1", {
      body: { net: "10.6.0.0", mask: "255.255.0.0" },
    });
    expect(again.status).toBe(403);
    expect((again.json as { error: string[] }).error[0]).toBe(
      "A network definition called 'net1' already exists. Cannot create a definition for 'net1'.",
    );
    const clash = await call(env.xcat, "PUT", "/networks/net2", {
      body: { net: "10.5.0.0", mask: "255.255.0.0" },
    });
    expect((clash.json as { error: string[] }).error[0]).toBe(
      "A network definition called 'net1' already exists that contains the same net and mask values. Cannot create a definition for 'net2'.",
    );
  });

  it("network objects and the networks table agree (§5.5, issue item 4)", async () => {
    await call(env.xcat, "PUT", "/networks/net1", { body: { mtu: "9000", usercomment: "fast" } });
    const rows = await call(env.xcat, "GET", "/tables/networks/rows/netname=net1");
    expect(rows.json).toEqual({
      networks: [
        {
          net: "10.5.0.0",
          mask: "255.255.0.0",
          netname: "net1",
          gateway: "10.5.0.1",
          mtu: "9000",
          comments: "fast",
          xcatdsource: "xcatmn",
        },
      ],
    });
    expect((await call(env.xcat, "GET", "/networks/net1/attrs/mtu,dhcpserver")).json).toEqual({
      net1: { dhcpserver: "", mtu: "9000" },
    });
  });
});
