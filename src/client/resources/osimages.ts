/**
 * client.osimages: osimage definitions, image import (copycds/imgimport) and image instances
 * (genimage, packimage, imgexport, rmimage).
 */
import type { Engine } from "../engine";
import type { AttributeInput, CallOptions } from "../types";
import { type CreateOptions, type DeleteOptions, NamedObjects } from "./objects";

/** Where `copycds` takes an image from: an ISO, or an image/config file (imgimport). */
export type ImageSource = { readonly iso: string } | { readonly file: string };

/** Extra command arguments as option → value, e.g. `{ "-n": "rhels8.6" }`. */
export type ImageParams = Readonly<Record<string, string>>;

/**
 * OS images.
 *
 * @example
 * ```ts
 * await client.osimages.create("rhels8-x86_64-netboot-compute", { imagetype: "linux", provmethod: "netboot" });
 * ```
 */
export class OsimagesApi extends NamedObjects {
  constructor(engine: Engine) {
    super(engine, { prefix: "osimages", param: "imgname", what: "osimage name" });
  }

  /**
   * Defines an osimage (mkdef). Throws XcatAlreadyExistsError when it exists.
   *
   * @example
   * ```ts
   * await client.osimages.create("img1", { imagetype: "linux", osvers: "rhels8.6", osarch: "x86_64" });
   * ```
   */
  create(name: string, attrs: AttributeInput, options?: CreateOptions): Promise<void> {
    return this.createObject(name, attrs, options);
  }

  /**
   * Removes osimage definitions (rmdef).
   *
   * @example
   * ```ts
   * await client.osimages.delete("img1");
   * ```
   */
  delete(names: string | readonly string[], options?: DeleteOptions): Promise<void> {
    return this.deleteObjects(names, options);
  }

  /**
   * Imports installation media (copycds for an ISO, imgimport for a file). xcatws uses only one
   * params object; it may take minutes, so give the client a long `requestTimeoutMs`.
   *
   * @example
   * ```ts
   * await client.osimages.copycds({ iso: "/iso/RHEL-8.6-x86_64-dvd.iso" });
   * ```
   */
  async copycds(source: ImageSource, params?: ImageParams, options?: CallOptions): Promise<void> {
    const body: Record<string, unknown> = { ...source };
    if (params !== undefined) body.params = [{ ...params }];
    await this.engine.call({ route: "osimages.copycds", body, options });
  }

  /**
   * Generates, packs or exports an image (genimage / packimage / imgexport). Returns xcatws's raw
   * message list, which this resource passes through unformatted.
   *
   * @example
   * ```ts
   * await client.osimages.instance("rhels8-x86_64-netboot-compute", "gen");
   * ```
   */
  async instance(
    name: string,
    action: "gen" | "pack" | "export",
    params?: ImageParams,
    options?: CallOptions,
  ): Promise<unknown> {
    const body: Record<string, unknown> = { action };
    if (params !== undefined) body.params = [{ ...params }];
    const answer = await this.engine.call({
      route: "osimages.instance",
      params: this.one(name),
      body,
      options,
    });
    return answer.body ?? null;
  }

  /**
   * Removes a stateless or statelite image from the file system (rmimage).
   *
   * @example
   * ```ts
   * await client.osimages.removeInstance("rhels8-x86_64-netboot-compute");
   * ```
   */
  async removeInstance(name: string, options?: CallOptions): Promise<unknown> {
    const answer = await this.engine.call({
      route: "osimages.removeInstance",
      params: this.one(name),
      options,
    });
    return answer.body ?? null;
  }
}
