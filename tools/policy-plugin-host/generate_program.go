package main

// GenerateProgram, which `pulumi import` asks the language host for (the code it prints), is
// answered by generate-program/, a program of its own next to this one (libexec/generate-program
// in the same folder): it links Pulumi's codegen, whose size and package init every start of this
// forwarder would otherwise pay, twice per engine command, for a call only `pulumi import` makes.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const generateProgramMethod = "/pulumirpc.LanguageRuntime/GenerateProgram"

// generateProgramPath is where with-toolchain.sh (tools/build-policy-plugin-host.sh) puts the
// generator: libexec/generate-program beside this executable, out of the folder put on PATH.
func generateProgramPath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(self), "libexec", "generate-program"), nil
}

// generateProgram hands the request's bytes to the generator and relays its answer: the response's
// bytes, or its error message as the call's error (as a handler's plain error reaches the engine).
func generateProgram(stream grpc.ServerStream) error {
	var raw []byte
	if err := stream.RecvMsg(&raw); err != nil {
		return err
	}
	path, err := generateProgramPath()
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(stream.Context(), path)
	cmd.Stdin = bytes.NewReader(raw)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if message := strings.TrimSpace(stderr.String()); message != "" {
			return status.Error(codes.Unknown, message)
		}
		return status.Errorf(codes.Internal, "%s: %v", path, err)
	}
	out := stdout.Bytes()
	return stream.SendMsg(&out)
}
