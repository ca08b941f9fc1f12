// GenerateProgram for `pulumi import`, as a program of its own: the policy plugin host (../main.go)
// starts it only when the engine asks for GenerateProgram, with the request's bytes on stdin, and
// relays what it prints on stdout (the response's bytes) or its error (stderr, exit status 1). It
// is not linked into the host because Pulumi's codegen (pkg/v3) makes a binary of 44 MB whose
// package init alone takes ~0.1 s: every language host start, twice per engine command, paid it
// for a call only `pulumi import` makes (docs/e2e-time.md).
//
// The CLI (pkg/cmd/pulumi/operations/import.go at v3.259.0) asks the project's language host to
// turn the PCL of what it imported into code, and the v3.68.0 Node.js host built here answers "not
// implemented". This answers it as Pulumi's own Node.js host of v3.259.0 does
// (sdk/nodejs/cmd/pulumi-language-nodejs/main.go, GenerateProgram): the PCL bound with the
// engine's schema loader, output-versioned invokes preferred, the non-strict options unless asked
// to be strict, and TypeScript written by pkg/v3's codegen/nodejs at that same version.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"
)

func main() {
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	var req pulumirpc.GenerateProgramRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		fail(err)
	}
	resp, err := generate(&req)
	if err != nil {
		fail(err)
	}
	out, err := proto.Marshal(resp)
	if err != nil {
		fail(err)
	}
	if _, err := os.Stdout.Write(out); err != nil {
		fail(err)
	}
}

// fail prints the error alone: the host returns it to the engine as the call's error message.
func fail(err error) {
	fmt.Fprint(os.Stderr, err.Error())
	os.Exit(1)
}

func generate(req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.GetLoaderTarget())
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := syntax.NewParser()
	for path, contents := range req.GetSource() {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.GetStrict() {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, fmt.Errorf("internal error: the program bound to nil")
	}
	files, diags, err := nodejs.GenerateProgram(program)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics = append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiagnostics}, nil
}
