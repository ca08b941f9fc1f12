// pulumi-language-nodejs with plugin support: the Node.js language host built from sdk/v3 v3.68.0
// (see ../README.md) answers the engine's RunPlugin call with "not supported", and Pulumi CLI v3.259
// starts a Node.js policy pack (`pulumi preview --policy-pack DIR`) only through that call whenever a
// Node.js language host is installed. This program stands in front of that host: it starts the real
// host with the same arguments, forwards every call to it unchanged, and answers RunPlugin for
// policy packs itself by running `@pulumi/pulumi/cmd/run-policy-pack` (as resolved from the pack's
// directory) with node, the way Pulumi's own `pulumi-analyzer-policy` launcher does. It also answers
// GenerateProgram, which `pulumi import` asks for the code it prints, by starting
// generate-program/ (generate_program.go).
//
// The real host is $PULUMI_XCAT_LANGUAGE_HOST, or else the next pulumi-language-nodejs on PATH.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

const runPluginMethod = "/pulumirpc.LanguageRuntime/RunPlugin"

// rawCodec passes messages through as bytes, so calls are forwarded without knowing their types.
type rawCodec struct{}

func (rawCodec) Marshal(v any) ([]byte, error) { return *(v.(*[]byte)), nil }
func (rawCodec) Unmarshal(data []byte, v any) error {
	*(v.(*[]byte)) = append([]byte(nil), data...)
	return nil
}
func (rawCodec) Name() string { return "proto" }

var _ encoding.Codec = rawCodec{}

func die(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs (policy plugin host): "+format+"\n", args...)
	os.Exit(1)
}

// marker is in every build of this program and in no real language host: the search of PATH below
// skips the files that hold it.
var marker = []byte("pulumi-xcat policy plugin host: forwards to the real Node.js language host")

func isPolicyPluginHost(path string) bool {
	content, err := os.ReadFile(path)
	return err == nil && bytes.Contains(content, marker)
}

// starterEnv carries the pid of the copy of this program that started the process as its real
// host. A copy started by another copy finds its parent's pid there and stops, where it would
// otherwise start copies without end: PULUMI_XCAT_LANGUAGE_HOST naming something that runs a copy
// (a script that execs one), which os.SameFile in realHost cannot see. This check costs a
// getenv; the marker scan it replaces read the whole real host (26 MB) on every start, ~0.25 s of
// CPU, twice per engine command (docs/e2e-time.md). Nested `pulumi` runs of a program inherit the
// variable but are not started by a copy, so their parent's pid differs.
const starterEnv = "PULUMI_XCAT_POLICY_HOST_PID"

func startedByACopy() bool {
	return os.Getenv(starterEnv) == strconv.Itoa(os.Getppid())
}

// self is this executable's file, for os.SameFile (a stat; nil when it cannot be found).
func self() os.FileInfo {
	path, err := os.Executable()
	if err != nil {
		return nil
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	return info
}

func isSelf(me os.FileInfo, path string) bool {
	info, err := os.Stat(path)
	return err == nil && me != nil && os.SameFile(me, info)
}

const noHost = "no Node.js language host to forward to (only copies of this program): set PULUMI_XCAT_LANGUAGE_HOST " +
	"to the pulumi-language-nodejs built from sdk/v3 (scripts/with-toolchain.sh does)"

// realHost is $PULUMI_XCAT_LANGUAGE_HOST, or else the first pulumi-language-nodejs on PATH that is
// not a build of this program. The variable is set by scripts/with-toolchain.sh to the host it
// built, so it is only checked not to be this very file (a stat); another copy is caught by
// startedByACopy. The search of PATH, where any file may be a copy, keeps the marker scan.
func realHost() string {
	me := self()
	if path := os.Getenv("PULUMI_XCAT_LANGUAGE_HOST"); path != "" {
		if isSelf(me, path) {
			die("%s", noHost)
		}
		return path
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		candidate := filepath.Join(dir, "pulumi-language-nodejs")
		if info, err := os.Stat(candidate); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 &&
			!isSelf(me, candidate) && !isPolicyPluginHost(candidate) {
			return candidate
		}
	}
	die("%s", noHost)
	return ""
}

func main() {
	if startedByACopy() {
		die("%s", noHost)
	}
	host := exec.Command(realHost(), os.Args[1:]...)
	host.Stderr = os.Stderr
	host.Env = append(os.Environ(), fmt.Sprintf("%s=%d", starterEnv, os.Getpid()))
	// The engine kills its plugins when it is done; the host goes with this process.
	host.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stdout, err := host.StdoutPipe()
	if err != nil {
		die("%v", err)
	}
	if err := host.Start(); err != nil {
		die("starting %s: %v", host.Path, err)
	}
	reader := bufio.NewReader(stdout)
	portLine, err := reader.ReadString('\n')
	if err != nil {
		die("the language host printed no port: %v", err)
	}
	// Whatever the host prints afterwards (a program's output) reaches the engine as before.
	go func() { _, _ = io.Copy(os.Stdout, reader) }()

	conn, err := grpc.NewClient("127.0.0.1:"+strings.TrimSpace(portLine),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.ForceCodec(rawCodec{}), grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(1<<30)))
	if err != nil {
		die("connecting to the language host: %v", err)
	}

	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		die("%v", err)
	}
	server := grpc.NewServer(
		grpc.ForceServerCodec(rawCodec{}),
		grpc.MaxRecvMsgSize(1<<30), grpc.MaxSendMsgSize(1<<30),
		grpc.UnknownServiceHandler(func(_ any, stream grpc.ServerStream) error {
			method, _ := grpc.MethodFromServerStream(stream)
			switch method {
			case runPluginMethod:
				return runPlugin(stream)
			case generateProgramMethod:
				return generateProgram(stream)
			}
			return forward(conn, method, stream)
		}),
	)
	fmt.Printf("%d\n", listener.Addr().(*net.TCPAddr).Port)
	go func() {
		_ = host.Wait()
		server.Stop()
	}()
	if err := server.Serve(listener); err != nil {
		die("%v", err)
	}
}

// forward relays one call, in both directions, to the real language host.
func forward(conn *grpc.ClientConn, method string, in grpc.ServerStream) error {
	md, _ := metadata.FromIncomingContext(in.Context())
	ctx, cancel := context.WithCancel(metadata.NewOutgoingContext(in.Context(), md.Copy()))
	defer cancel()
	out, err := conn.NewStream(ctx, &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}, method)
	if err != nil {
		return err
	}
	go func() {
		for {
			var msg []byte
			if err := in.RecvMsg(&msg); err != nil {
				_ = out.CloseSend()
				return
			}
			if err := out.SendMsg(&msg); err != nil {
				return
			}
		}
	}()
	if header, err := out.Header(); err == nil {
		_ = in.SendHeader(header)
	}
	for {
		var msg []byte
		if err := out.RecvMsg(&msg); err != nil {
			in.SetTrailer(out.Trailer())
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := in.SendMsg(&msg); err != nil {
			return err
		}
	}
}

// runPlugin starts a Node.js policy pack: node run-policy-pack <engine address> . in the pack's directory.
func runPlugin(stream grpc.ServerStream) error {
	var raw []byte
	if err := stream.RecvMsg(&raw); err != nil {
		return err
	}
	var req pulumirpc.RunPluginRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		return err
	}
	if req.GetKind() != "analyzer" {
		return status.Errorf(codes.Unimplemented,
			"this Node.js language host (sdk v3.68.0 with pulumi-xcat's policy plugin host) runs policy packs only, not %q plugins",
			req.GetKind())
	}
	dir := req.GetInfo().GetProgramDirectory()
	resolve := exec.Command("node", "-e", "process.stdout.write(require.resolve('@pulumi/pulumi/cmd/run-policy-pack'))")
	resolve.Dir = dir
	resolve.Env = req.GetEnv()
	entry, err := resolve.Output()
	if err != nil {
		return status.Errorf(codes.FailedPrecondition,
			"@pulumi/pulumi cannot be found from the policy pack %s: install it in the project that holds the pack (npm install @pulumi/pulumi)", dir)
	}
	cmd := exec.Command("node", append(append([]string{string(entry)}, req.GetArgs()...), ".")...)
	cmd.Dir = dir
	cmd.Env = req.GetEnv()
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var mu sync.Mutex
	send := func(resp *pulumirpc.RunPluginResponse) error {
		bytes, err := proto.Marshal(resp)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		return stream.SendMsg(&bytes)
	}
	cmd.Stdout = writerFunc(func(p []byte) error {
		return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: p}})
	})
	cmd.Stderr = writerFunc(func(p []byte) error {
		return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: p}})
	})
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		<-stream.Context().Done()
		_ = cmd.Process.Kill()
	}()
	code := int32(0)
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return err
		}
		code = int32(exit.ExitCode())
	}
	return send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: code}})
}

type writerFunc func([]byte) error

func (f writerFunc) Write(p []byte) (int, error) {
	if err := f(append([]byte(nil), p...)); err != nil {
		return 0, err
	}
	return len(p), nil
}
