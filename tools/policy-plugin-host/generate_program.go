package main

// GenerateProgram for `pulumi import`: the CLI (pkg/cmd/pulumi/operations/import.go at v3.259.0)
// asks the project's language host to turn the PCL of what it imported into code, and the v3.68.0
// Node.js host built here answers "not implemented". This answers it as Pulumi's own Node.js host
// of v3.259.0 does (sdk/nodejs/cmd/pulumi-language-nodejs/main.go, GenerateProgram): the PCL bound
// with the engine's schema loader, output-versioned invokes preferred, the non-strict options
// unless asked to be strict, and TypeScript written by pkg/v3's codegen/nodejs at that same version.

import (
	"fmt"
	"strings"

	"github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

const generateProgramMethod = "/pulumirpc.LanguageRuntime/GenerateProgram"

func generateProgram(stream grpc.ServerStream) error {
	var raw []byte
	if err := stream.RecvMsg(&raw); err != nil {
		return err
	}
	var req pulumirpc.GenerateProgramRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		return err
	}
	resp, err := generate(&req)
	if err != nil {
		return err
	}
	out, err := proto.Marshal(resp)
	if err != nil {
		return err
	}
	return stream.SendMsg(&out)
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
