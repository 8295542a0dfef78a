package main

import (
	"os"
	"regexp"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/cairntest"
)

func testCommand() *cli.Command {
	return &cli.Command{
		Name:      "test",
		Usage:     "run the project's testscript scenarios (tests/*.txtar)",
		ArgsUsage: "[DIR...]",
		Description: `Each scenario runs in a work folder of its own holding a copy of the project,
with its own CAIRN_HOME, local backend and passphrase, and the stack $STACK
created and selected; the user's stacks are never touched. Besides
testscript's commands, "exec cairn ..." runs this cairn, and:

  outputs-match KEY REGEXP   the stack output KEY (secrets revealed) matches
  changes OP=N...            the change summary of the last "cairn preview --json"
  resource-count N           the stack's state holds N resources

$STACK is the stack's name and $PROJECT_DIR the project's folder.`,
		UsageText: "cairn test\ncairn test -run url -v\ncairn test tests/slow -parallel 2\ncairn test -update   # rewrite the files that cmp compares with",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "run", Usage: "run only the scenarios whose name matches `REGEXP`"},
			&cli.BoolFlag{Name: "v", Usage: "show the log of every scenario, not only of failures"},
			&cli.IntFlag{Name: "parallel", Usage: "run at most `N` scenarios at once", DefaultText: "the number of CPUs"},
			&cli.BoolFlag{Name: "update", Usage: "rewrite the scenarios' files that a failing cmp compares with"},
		},
		Action: runTests,
	}
}

func runTests(c *cli.Context) error {
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
	if sum.Failed > 0 {
		return &exitError{code: 1}
	}
	return nil
}
