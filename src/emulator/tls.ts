/**
 * A self-signed certificate for 127.0.0.1 and localhost (as subject alternative names, so that a
 * client given it as CA verifies the connection), made with the `openssl` command: Node has no
 * certificate-creation API and a library for it would be a dependency for one function.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Certificate {
  readonly cert: string;
  readonly key: string;
}

export function generateSelfSignedCertificate(hosts: readonly string[] = []): Certificate {
  const dir = mkdtempSync(join(tmpdir(), "xcat-emulator-tls-"));
  try {
    const keyFile = join(dir, "key.pem");
    const certFile = join(dir, "cert.pem");
    const names = new Set(["localhost", ...hosts.filter((h) => !/^[\d.:]+$/.test(h))]);
    const ips = new Set(["127.0.0.1", "::1", ...hosts.filter((h) => /^[\d.:]+$/.test(h) && h !== "0.0.0.0")]);
    const san = [...[...names].map((n) => `DNS:${n}`), ...[...ips].map((ip) => `IP:${ip}`)].join(",");
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        keyFile,
        "-out",
        certFile,
        "-days",
        "365",
        "-subj",
        "/CN=xcat-emulator",
        "-addext",
        `subjectAltName=${san}`,
        "-addext",
        "basicConstraints=critical,CA:TRUE",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    return { cert: readFileSync(certFile, "utf8"), key: readFileSync(keyFile, "utf8") };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`could not generate a self-signed certificate with openssl: ${detail}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
