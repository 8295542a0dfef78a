package eval_test

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/eval"
)

// A program with a resource and an output that uses it, built by hand as a
// front end would, and run against a monitor.
func ExampleProgram_Run() {
	parse := func(src string) hcl.Expression {
		e, _ := hclsyntax.ParseExpression([]byte(src), "main.hcl", hcl.InitialPos)
		return e
	}
	bucket := &eval.Resource{
		Decl:       eval.Decl{Name: "bucket", Noun: "resource"},
		Type:       "test:index:Thing",
		Properties: parse(`{ name = "logs-${pulumi.stack}" }`),
	}
	name := &eval.Output{Decl: eval.Decl{Name: "name", Noun: "output"}, Value: parse(`upper(bucket.name)`)}
	prog := &eval.Program{Root: scope(bucket, name)}

	m := newMonitor()
	err := prog.Run(context.Background(), deploy.RunInfo{Monitor: m, Project: "proj", Stack: "dev"})
	fmt.Println(err, m.stackOutputs()["name"])
	// Output: <nil> "LOGS-DEV"
}
