// Package tftest reads and runs Terraform's test files (*.tftest.hcl, and
// OpenTofu's *.tofutest.hcl) against a folder of .tf files, as `tofu test`
// runs them.
//
// Parse reads a file into its run blocks; Check matches the file against
// the configuration it tests (runs, resources, outputs and variables it
// names), with positioned errors. Runner runs each file's runs in order
// against throwaway stacks of its own, through a Driver (the cairn
// command line, in a temporary backend), and destroys what the file made
// when it ends, the last stack first:
//
//	f, diags := tftest.Parse("tests/web.tftest.hcl", src)
//	r := tftest.Runner{Dir: ".", Driver: &tftest.CLI{Cairn: "cairn"}}
//	res := r.RunFile(ctx, f)
//
// An assertion becomes a check block of the configuration, with the test
// file's references (run.NAME.X, output.NAME, the test's own
// variables) replaced by what they stand for, so that it is evaluated by
// the same evaluator, over the same values, as the configuration.
package tftest
