// sdkgen generates the Python and Go SDKs of the native provider pulumi-resource-xcat from its
// package schema, with the code generators of github.com/pulumi/pulumi/pkg/v3 (the library behind
// `pulumi package gen-sdk`, whose language plugins cannot be had here: tools/README.md).
//
//	sdkgen <schema.json> <out dir>    writes <out dir>/python and <out dir>/go
//
// Binding the schema validates it against Pulumi's metaschema and its own references first: any
// problem is printed and the exit status is 1.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-xcat sdkgen"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: sdkgen <schema.json> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, outDir string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	loader := schema.NewPluginLoader(nil)
	pkg, diags, err := schema.BindSpec(spec, loader, schema.ValidationOptions{})
	if err != nil {
		return fmt.Errorf("binding %s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s does not validate:\n%s", schemaPath, diags.Error())
	}
	pythonFiles, err := python.GeneratePackage(tool, pkg, nil, loader)
	if err != nil {
		return fmt.Errorf("python: %w", err)
	}
	if err := write(filepath.Join(outDir, "python"), pythonFiles); err != nil {
		return err
	}
	goFiles, err := gogen.GeneratePackage(tool, pkg, nil)
	if err != nil {
		return fmt.Errorf("go: %w", err)
	}
	return write(filepath.Join(outDir, "go"), goFiles)
}

func write(dir string, files map[string][]byte) error {
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
