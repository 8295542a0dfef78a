package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/eval"
)

// commandPath names the command being run as the user types it: "cairn
// stack init".
func commandPath(c *cli.Context) string {
	var names []string
	for _, ctx := range c.Lineage() {
		if ctx.Command != nil && ctx.Command.Name != "" && ctx.Command.Name != c.App.Name {
			names = append([]string{ctx.Command.Name}, names...)
		}
	}
	return strings.Join(append([]string{c.App.Name}, names...), " ")
}

// usageError is a mistake on the command line: exit code 2, with where to
// read the command's usage.
func usageError(c *cli.Context, format string, args ...any) error {
	path := commandPath(c)
	return &exitError{code: 2, msg: fmt.Sprintf("%s (see `%s --help`)", fmt.Sprintf(format, args...), path)}
}

// unknownCommand says that name is not a command of the command being run
// (or of cairn), suggesting the closest one.
func unknownCommand(c *cli.Context, name string) error {
	cmds := c.App.Commands
	if c.Command != nil && len(c.Command.Subcommands) > 0 {
		cmds = c.Command.Subcommands
	}
	var names []string
	for _, cmd := range cmds {
		if !cmd.Hidden {
			names = append(names, cmd.Names()...)
		}
	}
	path := commandPath(c)
	msg := fmt.Sprintf("unknown command %q for `%s`.", name, path)
	if s := eval.Suggest(name, names); s != "" {
		msg += fmt.Sprintf(" Did you mean `%s %s`?", path, s)
	}
	return &exitError{code: 2, msg: fmt.Sprintf("%s Run `%s --help` for the list.", msg, path)}
}

// checkArgs holds the positional arguments to what the command's ArgsUsage
// declares: NAME is required, [NAME] optional, NAME... repeatable, and no
// ArgsUsage means none. A command with subcommands takes none of its own, so
// an argument there is a mistyped subcommand.
func checkArgs(c *cli.Context) error {
	n := c.NArg()
	if n > 0 && len(c.Command.Subcommands) > 0 {
		return unknownCommand(c, c.Args().First())
	}
	min, max := 0, 0
	for _, a := range strings.Fields(c.Command.ArgsUsage) {
		switch {
		case strings.HasSuffix(strings.TrimSuffix(a, "]"), "..."):
			max = -1
		case strings.HasPrefix(a, "["):
			max++
		default:
			min++
			max++
		}
	}
	switch {
	case max == 0 && n > 0:
		return usageError(c, "`%s` takes no arguments, but was given %s", commandPath(c), quoteArgs(c.Args().Slice()))
	case n < min || (max >= 0 && n > max):
		return usageError(c, "`%s` takes %s, but was given %d argument%s", commandPath(c), c.Command.ArgsUsage, n, plural(n))
	}
	return nil
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, " ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// prepareCommand readies a command and its subcommands: the global flags may
// follow the command name, positional arguments are checked against
// ArgsUsage, usage errors name the command's help, only commands with
// subcommands have a help subcommand, and boolean flags that default to false
// do not say so in the help.
func prepareCommand(c *cli.Command) {
	c.Flags = append(c.Flags, globalFlags()...)
	c.HideHelpCommand = len(c.Subcommands) == 0
	for _, f := range c.Flags {
		if b, ok := f.(*cli.BoolFlag); ok && !b.Value {
			b.DisableDefaultText = true
		}
	}
	if c.OnUsageError == nil {
		c.OnUsageError = func(ctx *cli.Context, err error, _ bool) error { return usageError(ctx, "%v", err) }
	}
	if act := c.Action; act != nil {
		c.Action = func(ctx *cli.Context) error {
			if err := checkArgs(ctx); err != nil {
				return err
			}
			return act(ctx)
		}
	}
	for _, sub := range c.Subcommands {
		prepareCommand(sub)
	}
}

// helpCommand is the root's help command: `cairn help stack init` shows the
// help of stack init, where urfave/cli's own looks at the first name only.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name: "help", Aliases: []string{"h"}, Usage: "show the help of Cairn or of a command", ArgsUsage: "[COMMAND...]",
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			args := append([]string{c.App.Name}, c.Args().Slice()...)
			return c.App.RunContext(c.Context, append(args, "--help"))
		},
	}
}
