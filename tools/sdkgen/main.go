// sdkgen generates the Python, Go and Node.js SDKs of the native provider pulumi-resource-xcat from
// its package schema, with the code generators of github.com/pulumi/pulumi/pkg/v3 (the library
// behind `pulumi package gen-sdk`, whose language plugins cannot be had here: tools/README.md).
//
//	sdkgen <schema.json> <out dir>    writes <out dir>/python, <out dir>/go and <out dir>/nodejs
//
// The Node.js SDK is not a package of its own: the npm package pulumi-xcat ships it compiled under
// its subpath `pulumi-xcat/native` (sdk/nodejs in the repository, built into dist/native-sdk). So
// only its TypeScript sources are written (no package.json, tsconfig.json or README.md: the
// package's own serve), and its getVersion reads the version of the package they are shipped in.
//
// Binding the schema validates it against Pulumi's metaschema and its own references first: any
// problem is printed and the exit status is 1.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
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
	if err := write(filepath.Join(outDir, "go"), goFiles); err != nil {
		return err
	}
	nodeFiles, err := nodejs.GeneratePackage(tool, pkg, nil, nil, false, loader)
	if err != nil {
		return fmt.Errorf("nodejs: %w", err)
	}
	shipped, err := shippedInPackage(nodeFiles)
	if err != nil {
		return err
	}
	return write(filepath.Join(outDir, "nodejs"), shipped)
}

// The generated utilities.ts reads the version from a package.json beside the compiled file, which
// a standalone SDK copies into its bin/ folder. Shipped as pulumi-xcat's dist/native-sdk, the
// version is the package's (the schema's version is the package's too).
const (
	versionOfStandaloneSDK   = "require('./package.json').version"
	versionOfShippingPackage = "require('../../package.json').version"
)

// shippedInPackage keeps the TypeScript sources of the Node.js SDK, pointing getVersion at the
// package that ships them.
func shippedInPackage(files map[string][]byte) (map[string][]byte, error) {
	shipped := map[string][]byte{}
	for name, content := range files {
		if !strings.HasSuffix(name, ".ts") {
			continue
		}
		if name == "utilities.ts" {
			text := string(content)
			if !strings.Contains(text, versionOfStandaloneSDK) {
				return nil, fmt.Errorf("nodejs: utilities.ts no longer reads %s", versionOfStandaloneSDK)
			}
			content = []byte(strings.Replace(text, versionOfStandaloneSDK, versionOfShippingPackage, 1))
		}
		shipped[name] = content
	}
	return shipped, nil
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
