// The go.mod given to the generated Go SDK (sdk/go) when tools/check-sdks.sh builds it.
module github.com/pulumi-xcat/pulumi-xcat/sdk/go

go 1.26

require github.com/pulumi/pulumi/sdk/v3 v3.206.0
