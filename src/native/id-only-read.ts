/**
 * What a Read by id alone returns: the engine sends one for `pulumi import` (and for a program's
 * `.get`) with no properties and no inputs. The core reads the object's own values and puts its
 * password attributes (bmcpassword, …) into the secret `secretAttributes`; here they are left out.
 *
 * Why: `pulumi import` writes the code it prints from the imported inputs, and only from the
 * schema's input properties, which `secretAttributes` is not (an output); were the passwords in
 * `attributes`, the code generator would write them in plain text (a secret becomes
 * `secret(<value>)`, pkg/importer/hcl2.go:1010 at v3.259.0). So the program pasted from that code
 * declares no password, and with the password in the imported state its next `up` would clear it
 * on the server. Left out, the password stays on the node as it was, and out of the code, the state
 * and the plan; a program that wants to manage it adds it from a secret config value. A table
 * row's password columns (the passwd table) are left out of its `values` for the same reason: only
 * declared columns are managed, so the column stays on the server as it was.
 */
import { isSecretAttribute } from "../provider/attributes";
import { isPlainObject } from "../provider/validation";
import type { Properties } from "./wire";

/** True for the Read of `pulumi import` or `.get`: no properties and no inputs to read with. */
export function isIdOnlyRead(props: Properties, inputs: Properties): boolean {
  return Object.keys(props).length === 0 && Object.keys(inputs).length === 0;
}

/** The values read, without the password attributes the core set aside or a row's password columns. */
export function withoutPasswords(values: Properties): Properties {
  const { secretAttributes: _leftOnTheServer, ...rest } = values;
  if (isPlainObject(rest.values)) {
    rest.values = Object.fromEntries(
      Object.entries(rest.values).filter(([column]) => !isSecretAttribute(column)),
    );
  }
  return rest;
}

/**
 * The sentence for an id-only Read that finds nothing: the engine's own ("resource 'x' does not
 * exist") says neither the type nor that the id is the object's name on the server.
 */
export function nothingToImport(type: string, name: string, id: string): Error {
  return new Error(
    `${type} "${name}": the server has no object with the id '${id}' to import or get; nothing was ` +
      `imported. Check the id (docs/reference/${type.split(":").pop()}.md says what a ${type.split(":").pop()}'s id is).`,
  );
}
