// Command cairn is the Cairn command-line interface: it previews and applies
// YAML and HCL stacks, manages stacks and their configuration, and serves
// Cairn's providers as plugins.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"
)

// version is the Cairn version; release builds set it with -ldflags.
var version = "0.1.0-dev"

// buildVersion is version, and for a development build also the size and
// time of its executable, so that what one build keeps (such as Terraform
// providers' schemas) is not read by another.
func buildVersion() string {
	if !strings.HasSuffix(version, "-dev") {
		return version
	}
	exe, err := os.Executable()
	if err != nil {
		return version
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return version
	}
	return fmt.Sprintf("%s+%d.%d", version, fi.Size(), fi.ModTime().UnixNano())
}

func main() {
	stop := startProfile()
	code := run(shim(os.Args), os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// shim makes the binary, installed as pulumi-resource-<pkg>, that package's
// provider plugin, for Pulumi's CLI or any engine of the protocol.
func shim(args []string) []string {
	if pkg, ok := strings.CutPrefix(filepath.Base(args[0]), "pulumi-resource-"); ok {
		return []string{args[0], "plugin", "serve", pkg}
	}
	return args
}

// exitError carries an exit code with a message already shown to the user.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// run runs the CLI and returns its exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	// An unknown command is reported from help (`cairn help NAME`), which
	// cannot return an error: keep it for the exit path.
	var unknown error
	app.CommandNotFound = func(c *cli.Context, name string) { unknown = unknownCommand(c, name) }
	err := app.Run(interspersed(app, args))
	if err == nil {
		err = unknown
	}
	if err == nil {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, "error:", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "error:", err)
	return 1
}

// globalFlags are accepted before the command and after it.
func globalFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "cwd", Aliases: []string{"C"}, Usage: "run as if started in `DIR`"},
		&cli.StringFlag{Name: "stack", Aliases: []string{"s"}, Usage: "the `NAME` of the stack to operate on", DefaultText: "the selected stack", EnvVars: []string{"CAIRN_STACK"}},
		&cli.StringFlag{Name: "color", Value: "auto", Usage: "when to colour output: `WHEN` is auto, always or never (NO_COLOR turns auto off)"},
		&cli.BoolFlag{Name: "non-interactive", Usage: "never prompt, and draw no live progress", DisableDefaultText: true},
		&cli.BoolFlag{Name: "verbose", Usage: "log what plugins and language hosts print on stderr, and each call to a plugin with its duration (CAIRN_LOG=debug too)", DisableDefaultText: true},
		&cli.StringFlag{Name: "provider-isolation", EnvVars: []string{"CAIRN_ISOLATE_PROVIDERS"},
			Usage: "run the built-in providers of these `PACKAGES` (comma-separated, * for all) as plugin processes"},
	}
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	commands := []*cli.Command{
		stackCommand(), configCommand(), previewCommand(), upCommand(), refreshCommand(), destroyCommand(),
		importCommand(), stateCommand(), pluginCommand(), packageCommand(), backendCommand(), testCommand(), versionCommand(),
		lspCommand(),
		consoleCommand(),
	}
	for _, c := range commands {
		prepareCommand(c)
	}
	commands = append(commands, helpCommand())
	return &cli.App{
		Name:  "cairn",
		Usage: "desired-state infrastructure as code, for YAML and HCL stacks",
		Description: `Cairn evaluates a project's YAML or HCL documents into a dependency graph,
previews the difference with the stack's recorded state, and applies it through
resource providers. Projects, stack configuration and state are compatible
with Pulumi's.

Environment:
  CAIRN_HOME               where Cairn keeps plugins and the default state (~/.cairn)
  CAIRN_BACKEND_URL        the state backend: file://DIR (default file://$CAIRN_HOME/state),
                           postgres://user:password@host:port/db, or a bucket: s3://BUCKET[/PREFIX],
                           gs://BUCKET[/PREFIX], azblob://CONTAINER[/PREFIX] (PULUMI_BACKEND_URL works too)
  CAIRN_CONFIG_PASSPHRASE  the passphrase of stack secrets (PULUMI_CONFIG_PASSPHRASE works too)`,
		Version:              version,
		Flags:                append(globalFlags(), cli.HelpFlag), // the help flag urfave/cli adds only without a help command
		Commands:             commands,
		Reader:               stdin,
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		ExitErrHandler:       func(*cli.Context, error) {}, // run reports errors
		OnUsageError:         func(c *cli.Context, err error, _ bool) error { return usageError(c, "%v", err) },
	}
}

// global returns a global flag's value wherever on the command line it was
// given, the innermost first.
func global(c *cli.Context, name string) string {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) {
			return ctx.String(name)
		}
	}
	return c.String(name)
}

// globalBool is global for boolean flags.
func globalBool(c *cli.Context, name string) bool {
	for _, ctx := range c.Lineage() {
		if ctx.IsSet(name) {
			return ctx.Bool(name)
		}
	}
	return false
}

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print Cairn's version",
		UsageText: "cairn version",
		Action: func(c *cli.Context) error {
			fmt.Fprintln(c.App.Writer, version)
			return nil
		},
	}
}

// interspersed moves the flags that follow a command's positional arguments
// before them ("config set KEY VALUE --secret"), which urfave/cli does not
// accept on its own. Arguments after "--", and negative numbers ("-1"), are
// positional, wherever "--" is.
func interspersed(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	out := []string{args[0]}
	flags := app.Flags
	cmds := app.Commands
	i := 1
	// Walk the command path, keeping any flags given along the way.
	for i < len(args) {
		a := args[i]
		if a == "--" || isNumber(a) {
			break
		}
		if strings.HasPrefix(a, "-") {
			out = append(out, a)
			if takesValue(flags, a) && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
			i++
			continue
		}
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(a) {
				next = c
			}
		}
		if next == nil {
			break
		}
		out = append(out, a)
		flags, cmds = next.Flags, next.Subcommands
		i++
	}
	var positional []string
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-" && !isNumber(a):
			out = append(out, a)
			if takesValue(flags, a) && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
		default:
			positional = append(positional, a)
		}
	}
	// "--" ends the flags, so that "-1" or "--x" after it stays an argument.
	return append(append(out, "--"), positional...)
}

// isNumber reports whether an argument is a number, such as "-1" or "-0.5",
// rather than a flag.
func isNumber(arg string) bool {
	_, err := strconv.ParseFloat(arg, 64)
	return err == nil
}

// takesValue reports whether the flag token names a flag that takes a value
// in the next argument.
func takesValue(flags []cli.Flag, token string) bool {
	if strings.Contains(token, "=") {
		return false
	}
	name := strings.TrimLeft(token, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				_, isBool := f.(*cli.BoolFlag)
				return !isBool
			}
		}
	}
	return false
}
