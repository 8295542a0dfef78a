package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/cairntest"
	"github.com/cairn-iac/cairn/lang/tftest"
)

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run the project's testscript scenarios (tests/*.txtar) and Terraform test files (*.tftest.hcl)",
		ArgsUsage: "[DIR...]",
		Description: `Each scenario runs in a work folder of its own holding a copy of the project,
with its own CAIRN_HOME, local backend and passphrase, and the stack $STACK
created and selected; the user's stacks are never touched. Besides
testscript's commands, "exec cairn ..." runs this cairn, and:

  outputs-match KEY REGEXP   the stack output KEY (secrets revealed) matches
  changes OP=N...            the change summary of the last "cairn preview --json"
  resource-count N           the stack's state holds N resources

$STACK is the stack's name and $PROJECT_DIR the project's folder.

Terraform test files (*.tftest.hcl, *.tofutest.hcl) in the folder and in
tests/ (or -test-directory) run as tofu test runs them: each file's run
blocks in order, against throwaway stacks in a temporary backend, which are
destroyed when the file ends.`,
		UsageText: "cairn test\ncairn test -run url -v\ncairn test tests/slow -parallel 2\ncairn test -update   # rewrite the files that cmp compares with",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "run", Usage: "run only the scenarios whose name matches `REGEXP`"},
			&cli.BoolFlag{Name: "v", Usage: "show the log of every scenario, not only of failures, and the steps of each Terraform test run"},
			&cli.IntFlag{Name: "parallel", Usage: "run at most `N` scenarios at once", DefaultText: "the number of CPUs"},
			&cli.BoolFlag{Name: "update", Usage: "rewrite the scenarios' files that a failing cmp compares with"},
			&cli.StringSliceFlag{Name: "filter", Usage: "run only this Terraform test `FILE`, and no scenario (repeatable)"},
			&cli.StringFlag{Name: "test-directory", Value: "tests", Usage: "the `DIR` of Terraform test files, besides the configuration's folder"},
			&cli.BoolFlag{Name: "json", Usage: "print Terraform test results as JSON lines, in the shape of tofu test -json (no scenario runs)"},
		}, varFlags()...),
		Action: runTests,
	}
}

func runTests(c *cli.Context) error {
	failed, ran, err := runTerraformTests(c)
	if err != nil {
		return err
	}
	// -filter and -json are of Terraform test files: no scenario runs.
	if ran && (!hasScenarios(c) || c.IsSet("filter") || c.Bool("json")) {
		if failed {
			return &exitError{code: 1}
		}
		return nil
	}
	opts := cairntest.Options{Project: global(c, "cwd"), Dirs: c.Args().Slice(), Update: c.Bool("update")}
	if re := c.String("run"); re != "" {
		var err error
		if opts.Run, err = regexp.Compile(re); err != nil {
			return usageError(c, "-run %q: %v", re, err)
		}
	}
	if c.IsSet("parallel") && c.Int("parallel") < 1 {
		return usageError(c, "-parallel must be at least 1, not %d", c.Int("parallel"))
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	opts.Cairn = exe
	r := cairntest.Runner{Out: c.App.Writer, Verbose: c.Bool("v"), Parallel: c.Int("parallel")}
	sum, err := r.Run(opts)
	if err != nil {
		return err
	}
	if sum.Failed > 0 || failed {
		return &exitError{code: 1}
	}
	return nil
}

// hasScenarios reports whether there are testscript scenarios to run:
// folders were named, or the project's tests/ holds *.txtar files.
func hasScenarios(c *cli.Context) bool {
	if c.Args().Len() > 0 {
		return true
	}
	dir := global(c, "cwd")
	if dir == "" {
		dir = "."
	}
	found, _ := filepath.Glob(filepath.Join(dir, "tests", "*.txtar"))
	return len(found) > 0
}

// runTerraformTests runs the Terraform test files of the folder (those
// -filter names), one after the other; ran is false when there are none.
func runTerraformTests(c *cli.Context) (failed, ran bool, err error) {
	if c.Args().Len() > 0 {
		return false, false, nil
	}
	dir := global(c, "cwd")
	if dir == "" {
		dir = "."
	}
	names, err := tftest.Discover(dir, c.String("test-directory"))
	if err != nil {
		return false, false, err
	}
	if filter := c.StringSlice("filter"); len(filter) > 0 {
		keep := map[string]bool{}
		for _, f := range filter {
			keep[filepath.ToSlash(filepath.Clean(f))] = true
		}
		names = slices.DeleteFunc(names, func(n string) bool { return !keep[n] })
	}
	if len(names) == 0 {
		return false, false, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return false, false, err
	}
	home, err := cairnHome()
	if err != nil {
		return false, false, err
	}
	s := &session{c: c, cwd: dir}
	var vars []string
	for _, a := range s.commandVars(c) {
		if a.File {
			abs, _ := filepath.Abs(a.Value)
			vars = append(vars, "-var-file="+abs)
		} else {
			vars = append(vars, "-var", a.Value)
		}
	}
	rep := &tftest.Reporter{Out: c.App.Writer, JSON: c.Bool("json"), Verbose: c.Bool("v"), Version: buildVersion()}
	var files []*tftest.File
	var parseErrs []hcl.Diagnostics
	for _, n := range names {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return false, false, err
		}
		f, diags := tftest.Parse(n, src)
		files, parseErrs = append(files, f), append(parseErrs, diags)
	}
	rep.Start(files)
	r := &tftest.Runner{Dir: dir, Vars: vars, Verbose: c.Bool("v"), CLI: &tftest.CLI{Cairn: exe, Home: home, Env: os.Environ()}}
	for i, f := range files {
		if parseErrs[i].HasErrors() {
			rep.File(&tftest.FileResult{File: f, Status: tftest.Error, Diags: parseErrs[i]})
			continue
		}
		rep.File(r.RunFile(c.Context, f))
	}
	rep.Summary()
	return rep.Failed(), true, nil
}
