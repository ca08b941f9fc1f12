module github.com/pulumi-xcat/tools/pulumi-language-yaml

go 1.26

require github.com/pulumi/pulumi-yaml v1.25.0

tool github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
