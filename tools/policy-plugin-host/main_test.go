package main

// The stand-in's guards against forwarding to a copy of itself, on the built binary: a copy would
// start copies without end. Run with `go test` in this folder (GOFLAGS=-mod=mod and the caches of
// tools/build-policy-plugin-host.sh); `npm test` covers forwarding through the e2e tier.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func buildStandIn(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pulumi-language-nodejs")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runStandIn(t *testing.T, bin string, env ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, "127.0.0.1:1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, string(out)
}

func TestRefusesItselfAsTheRealHost(t *testing.T) {
	bin := buildStandIn(t)
	code, out := runStandIn(t, bin, "PULUMI_XCAT_LANGUAGE_HOST="+bin)
	if code != 1 || !strings.Contains(out, "only copies of this program") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

// PULUMI_XCAT_LANGUAGE_HOST names a script that execs a copy: os.SameFile sees only the script, so
// without the pid check each copy would start the script again, without end.
func TestACopyStartedByACopyStops(t *testing.T) {
	bin := buildStandIn(t)
	dir := t.TempDir()
	content, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dir, "pulumi-language-nodejs")
	if err := os.WriteFile(copied, content, 0o755); err != nil {
		t.Fatal(err)
	}
	// Without the check the chain would not end: the script stops it at a depth of 5 and says so.
	wrapper := filepath.Join(dir, "host.sh")
	script := "#!/bin/sh\nn=${TEST_DEPTH:-0}\nif [ \"$n\" -ge 5 ]; then echo 'copies without end' >&2; exit 3; fi\n" +
		"TEST_DEPTH=$((n + 1)) exec " + copied + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out := runStandIn(t, bin, "PULUMI_XCAT_LANGUAGE_HOST="+wrapper)
	// The first copy stops with the message; the stand-in then finds no port.
	if code != 1 || strings.Contains(out, "copies without end") || strings.Count(out, "only copies of this program") != 1 ||
		!strings.Contains(out, "printed no port") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

func TestForwardsToTheNamedHostWithItsPid(t *testing.T) {
	bin := buildStandIn(t)
	dir := t.TempDir()
	seen := filepath.Join(dir, "env")
	// A host that records what it was given and prints a port, then exits: the stand-in prints its
	// own port and ends with it.
	host := filepath.Join(dir, "host.sh")
	script := "#!/bin/sh\necho \"$PULUMI_XCAT_POLICY_HOST_PID $PPID $*\" > " + seen + "\necho 1\n"
	if err := os.WriteFile(host, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out := runStandIn(t, bin, "PULUMI_XCAT_LANGUAGE_HOST="+host)
	if code != 0 {
		t.Fatalf("exit %d, output %q", code, out)
	}
	recorded, err := os.ReadFile(seen)
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(recorded))
	if len(fields) != 3 || fields[0] != fields[1] || fields[2] != "127.0.0.1:1" {
		t.Fatalf("the host saw %q: want the stand-in's pid as PULUMI_XCAT_POLICY_HOST_PID and its parent, and the arguments", recorded)
	}
}
