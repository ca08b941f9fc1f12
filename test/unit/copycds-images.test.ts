/**
 * Which images copycds defines (src/emulator/store/copycds-images.ts), checked against what
 * xCAT's rules give over the files it ships (xcat-core 7733d16f, SvrUtils.pm).
 */
import { describe, expect, it } from "vitest";
import { copycdsImages, osSearchList } from "../../src/emulator/store/copycds-images";

const attributes = (osver: string, arch: string) =>
  new Map(
    copycdsImages(osver, arch, `/install/${osver}/${arch}`).map((i) => [
      i.name,
      Object.fromEntries(i.attributes),
    ]),
  );

describe("osSearchList (get_os_search_list, SvrUtils.pm:487-517)", () => {
  it("gives the examples of its documentation (SvrUtils.pm:466-481)", () => {
    expect(osSearchList("ubuntu24.04.1")).toEqual(["ubuntu24.04.1", "ubuntu24.04.0", "ubuntu24.04"]);
    expect(osSearchList("rocky9.6")).toEqual([
      "rocky9.6",
      "rocky9.5",
      "rocky9.4",
      "rocky9.3",
      "rocky9.2",
      "rocky9.1",
      "rocky9.0",
      "rocky9",
    ]);
  });
});

describe("copycdsImages", () => {
  it("RHEL 6.5 x86_64: install images for compute and service, diskless for compute only", () => {
    const images = attributes("rhels6.5", "x86_64");
    // {compute,service}.*tmpl (SvrUtils.pm:819-843); compute.*pkglist (SvrUtils.pm:1263-1288).
    expect([...images.keys()]).toEqual([
      "rhels6.5-x86_64-install-compute",
      "rhels6.5-x86_64-install-service",
      "rhels6.5-x86_64-netboot-compute",
      "rhels6.5-x86_64-statelite-compute",
    ]);
    expect(images.get("rhels6.5-x86_64-install-service")).toEqual({
      imagetype: "linux",
      provmethod: "install",
      profile: "service",
      osname: "Linux",
      osvers: "rhels6.5",
      osarch: "x86_64",
      osdistroname: "rhels6.5-x86_64",
      postscripts: "servicenode",
      // get_file_name (SvrUtils.pm:560-599): the generic OS with the arch comes before the generic OS.
      template: "/opt/xcat/share/xcat/install/rh/service.rhels6.x86_64.tmpl",
      pkgdir: "/install/rhels6.5/x86_64",
      pkglist: "/opt/xcat/share/xcat/install/rh/service.rhels6.x86_64.pkglist",
      otherpkglist: "/opt/xcat/share/xcat/install/rh/service.rhels6.x86_64.otherpkgs.pkglist",
      otherpkgdir: "/install/post/otherpkgs/rhels6.5/x86_64",
    });
    // SvrUtils.pm:1358-1365: both diskless images use /install/netboot/<os>/<arch>/<profile>.
    expect(images.get("rhels6.5-x86_64-statelite-compute")).toMatchObject({
      provmethod: "statelite",
      pkglist: "/opt/xcat/share/xcat/netboot/rh/compute.rhels6.x86_64.pkglist",
      exlist: "/opt/xcat/share/xcat/netboot/rh/compute.rhels6.x86_64.exlist",
      postinstall: "/opt/xcat/share/xcat/netboot/rh/compute.rhels6.x86_64.postinstall",
      rootimgdir: "/install/netboot/rhels6.5/x86_64/compute",
    });
  });

  it("Ubuntu 22.04: the subiquity template, and netboot only (debian.pm:497-503)", () => {
    const images = attributes("ubuntu22.04", "x86_64");
    expect([...images.keys()]).toEqual([
      "ubuntu22.04-x86_64-install-compute",
      "ubuntu22.04-x86_64-install-service",
      "ubuntu22.04-x86_64-netboot-compute",
    ]);
    expect(images.get("ubuntu22.04-x86_64-install-compute")?.template).toBe(
      "/opt/xcat/share/xcat/install/ubuntu/compute.subiquity.tmpl",
    );
  });

  it("SLE 15 SP4 reads the sles directory through the sle link (xCAT-server.spec:502-503)", () => {
    const images = attributes("sle15.4", "x86_64");
    expect(images.get("sle15.4-x86_64-install-compute")?.template).toBe(
      "/opt/xcat/share/xcat/install/sle/compute.sle15.tmpl",
    );
    expect(images.get("sle15.4-x86_64-netboot-compute")?.pkglist).toBe(
      "/opt/xcat/share/xcat/netboot/sle/compute.sle15.x86_64.pkglist",
    );
  });

  it("files for another architecture or release are skipped (_profile_file_matches, SvrUtils.pm:519-558)", () => {
    // CentOS 7 ships no service template of its own; service.centos-stream8.tmpl is for another OS.
    expect([...attributes("centos7", "x86_64").keys()]).not.toContain("centos7-x86_64-install-service");
    expect(attributes("rhels7.9", "ppc64le").get("rhels7.9-ppc64le-netboot-compute")?.pkglist).toBe(
      "/opt/xcat/share/xcat/netboot/rh/compute.rhels7.ppc64le.pkglist",
    );
  });
});
