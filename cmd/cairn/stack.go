package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/display"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/state"
	"github.com/cairn-iac/cairn/engine/workspace"
)

func stackCommand() *cli.Command {
	return &cli.Command{
		Name:  "stack",
		Usage: "create, select, list, remove and inspect stacks",
		Description: `A stack is one instance of the project (dev, prod, ...) with its own
configuration (Pulumi.<stack>.yaml) and state. Alone, the command shows the
current stack: its last update, resource count and outputs.`,
		UsageText: "cairn stack\ncairn stack --show-secrets\ncairn stack init dev",
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "show-secrets", Usage: "show secret outputs in plaintext"}},
		Action:    stackSummary,
		Subcommands: []*cli.Command{
			{
				Name: "init", Usage: "create a stack and select it", ArgsUsage: "NAME",
				UsageText: "cairn stack init dev",
				Action:    stackInit,
			},
			{
				Name: "select", Usage: "select the stack that commands operate on", ArgsUsage: "NAME",
				UsageText: "cairn stack select prod\ncairn stack select --create dev   # create it if it does not exist",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "create", Aliases: []string{"c"}, Usage: "create the stack if it does not exist"}},
				Action:    stackSelect,
			},
			{
				Name: "ls", Usage: "list the project's stacks", UsageText: "cairn stack ls [--all]",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "all", Aliases: []string{"a"}, Usage: "list the stacks of every project"}},
				Action: stackLs,
			},
			{
				Name: "rm", Usage: "remove a stack and its state", ArgsUsage: "[NAME]",
				UsageText: "cairn stack rm dev --yes\ncairn stack rm dev --yes --force   # forget resources it still manages\n" +
					"cairn stack rm dev --yes --purge   # and the states kept of it, for `cairn stack restore`",
				Description: `The stack's states (its last one among them) are kept, so that
` + "`cairn stack restore --stack NAME`" + ` can bring it back; --purge removes them
too, and on a stack removed earlier removes what its removal kept. On a
terminal, without --yes, Cairn offers to remove them.`,
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"},
					&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "remove the stack even if it still has resources"},
					&cli.BoolFlag{Name: "purge", Usage: "remove the states kept of the stack as well"},
					&cli.BoolFlag{Name: "preserve-config", Usage: "keep Pulumi.<stack>.yaml"},
				},
				Action: stackRm,
			},
			{
				Name: "history", Usage: "show the stack's operations, newest first", UsageText: "cairn stack history [--json]",
				Flags:       []cli.Flag{&cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print JSON"}},
				Action:      stackHistory,
				Subcommands: []*cli.Command{stackHistoryPruneCommand()},
			},
			stackRenameCommand(),
			stackTagCommand(),
			{
				Name: "unlock", Usage: "break the stack's lock (when the process holding it is gone)",
				UsageText: "cairn stack unlock",
				Action:    stackUnlock,
			},
			{
				Name: "restore", Usage: "restore the stack's state from a backup: the newest that can be read, or that of an operation of its history",
				UsageText: "cairn stack restore\ncairn stack restore --version 3",
				Flags:     []cli.Flag{&cli.IntFlag{Name: "version", Usage: "restore the state written by operation `N` (see `cairn stack history`)"}},
				Action:    stackRestore,
			},
			{
				Name: "output", Usage: "show the stack's outputs", ArgsUsage: "[NAME]",
				UsageText: "cairn stack output\ncairn stack output url\ncairn stack output --json --show-secrets",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print JSON"},
					&cli.BoolFlag{Name: "show-secrets", Usage: "show secret outputs in plaintext"},
				},
				Action: stackOutput,
			},
			{
				Name: "export", Usage: "print the stack's state as a Pulumi-compatible deployment",
				UsageText: "cairn stack export --file state.json",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "file", Usage: "write to `FILE` instead of stdout"},
					&cli.BoolFlag{Name: "show-secrets", Usage: "write secrets in plaintext"},
				},
				Action: stackExport,
			},
			{
				Name: "import", Usage: "replace the stack's state with a deployment (from `pulumi stack export` or `cairn stack export`), or move a Terraform state in",
				UsageText: "cairn stack import --file state.json\ncairn stack import --from-terraform terraform.tfstate\n" +
					"cairn stack import --from-terraform .          # the state of this Terraform configuration's backend\n" +
					"cairn stack import --from-terraform 's3://states/net/terraform.tfstate?region=eu-west-1'",
				Flags: append([]cli.Flag{
					&cli.StringFlag{Name: "file", Usage: "read from `FILE` instead of stdin"},
					&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "import a state that fails the integrity checks"},
					&cli.StringFlag{Name: "from-terraform", Usage: "move the Terraform state in `SOURCE` (format version 4) into the stack, which must be empty, " +
						"each instance in the place of the program's resource of its address; SOURCE is a state file, a folder of Terraform files " +
						"(the state its backend keeps for the workspace named as the stack), or an s3://, gs://, azblob:// or http(s):// URL"},
				}, varFlags()...),
				Action: stackImport,
			},
			{
				Name: "graph", Usage: "print the stack's dependency graph", ArgsUsage: "[FILE]",
				UsageText: "cairn stack graph > graph.dot\ncairn stack graph --format mermaid",
				Flags:     []cli.Flag{&cli.StringFlag{Name: "format", Value: "dot", Usage: "the graph's `FORMAT`: dot or mermaid"}},
				Action:    stackGraph,
			},
		},
	}
}

func stackInit(c *cli.Context) error {
	s, ref, err := namedStack(c)
	if err != nil {
		return err
	}
	return s.createStack(ref)
}

// createStack creates the stack and selects it. Its state begins with its
// seed key, sealed by its secrets manager, so that every preview before
// the first update shows the random values that update will create.
func (s *session) createStack(ref backend.StackRef) error {
	cfg, err := workspace.LoadStackConfig(s.project, ref.Name)
	if err != nil {
		return err
	}
	sm, err := s.secrets(cfg)
	if err != nil {
		return err
	}
	seeds, err := snapshot.NewSeeds()
	if err != nil {
		return err
	}
	if err := s.backend.CreateStack(s.c.Context, ref, &snapshot.Snapshot{Seeds: seeds}, sm); err != nil {
		if errors.Is(err, backend.ErrStackExists) {
			return fmt.Errorf("stack %q already exists; select it with `cairn stack select %s`", ref.Name, ref.Name)
		}
		return err
	}
	if err := workspace.SelectStack(s.home, s.project, ref.Name); err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "Created stack %q\n", ref.Name)
	return nil
}

func stackSelect(c *cli.Context) error {
	s, ref, err := namedStack(c)
	if err != nil {
		return err
	}
	ok, err := s.stackExists(ref)
	switch {
	case err != nil:
		return err
	case !ok && c.Bool("create"):
		return s.createStack(ref)
	case !ok:
		return notFound(ref)
	}
	return workspace.SelectStack(s.home, s.project, ref.Name)
}

// namedStack opens a session on the project and reads the stack name that
// is the command's one argument.
func namedStack(c *cli.Context) (*session, backend.StackRef, error) {
	s, err := newSession(c, true)
	if err != nil {
		return nil, backend.StackRef{}, err
	}
	ref, err := s.parseRef(c.Args().First())
	return s, ref, err
}

func stackLs(c *cli.Context) error {
	all := c.Bool("all")
	s, err := newSession(c, false)
	if err != nil {
		return err
	}
	project, selected := "", ""
	if !all {
		if s.project, err = s.projectByName(); err != nil {
			return err
		}
		project = s.project.Name
		selected, _ = workspace.SelectedStack(s.home, s.project)
	}
	stacks, err := s.backend.ListStacks(c.Context, project)
	if err != nil {
		return err
	}
	if len(stacks) == 0 {
		fmt.Fprintln(s.stdout, "No stacks; create one with `cairn stack init <name>`.")
		return nil
	}
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "NAME\tLAST UPDATE\tRESOURCES\tLOCKED")
	for _, st := range stacks {
		name := st.Ref.Name
		if all {
			name = st.Ref.String()
		}
		if st.Ref.Name == selected {
			name += "*"
		}
		if st.Err != nil {
			s.warn(st.Err.Error())
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", name, lastUpdate(st), st.Resources, lockText(st.Lock))
	}
	return w.Flush()
}

// lastUpdate says when a stack's state was last written.
func lastUpdate(st backend.StackSummary) string {
	switch {
	case st.Err != nil:
		return "unreadable"
	case st.LastUpdate.IsZero():
		return "never"
	}
	return ago(time.Since(st.LastUpdate))
}

func lockText(l *backend.LockInfo) string {
	if l == nil {
		return "no"
	}
	return fmt.Sprintf("pid %d on %s", l.Pid, l.Hostname)
}

// stackSummary shows the current stack, as `pulumi stack` does: its name,
// last update, resource count and outputs.
func stackSummary(c *cli.Context) error {
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	stacks, err := s.backend.ListStacks(c.Context, s.project.Name)
	if err != nil {
		return err
	}
	var st backend.StackSummary
	for _, x := range stacks {
		if x.Ref.Name == s.stack {
			st = x
		}
	}
	if st.Err != nil {
		return st.Err
	}
	fmt.Fprintf(s.stdout, "Current stack is %s:\n", s.stack)
	fmt.Fprintf(s.stdout, "    Last update: %s\n", lastUpdate(st))
	fmt.Fprintf(s.stdout, "    Resources: %d\n", st.Resources)
	if st.Lock != nil {
		fmt.Fprintf(s.stdout, "    Locked by: %s\n", lockText(st.Lock))
	}
	outs, err := s.outputs()
	if err != nil {
		return err
	}
	fmt.Fprintln(s.stdout)
	if err := writeOutputs(s.stdout, outs, c.Bool("show-secrets")); err != nil {
		return err
	}
	fmt.Fprintln(s.stdout, "\nUse `cairn stack select` to change stack; `cairn stack ls` lists known ones.")
	return nil
}

// ago renders a duration for humans.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d minutes ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d hours ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}

func stackRm(c *cli.Context) error {
	s, err := newSession(c, true)
	if err != nil {
		return err
	}
	var ref backend.StackRef
	if name := c.Args().First(); name != "" {
		ref, err = s.parseRef(name)
	} else if err = s.useStack(); err == nil {
		ref = s.ref(s.stack)
	}
	if err != nil {
		return err
	}
	purge := c.Bool("purge")
	if exists, err := s.stackExists(ref); purge && err == nil && !exists {
		return s.purgeRemoved(c, ref)
	}
	what := fmt.Sprintf("This removes stack %q and its state.", ref.Name)
	if purge {
		what = fmt.Sprintf("This removes stack %q, its state and every state kept of it.", ref.Name)
	}
	if err := s.confirm(c, what); err != nil {
		return err
	}
	removed, err := s.backend.RemoveStack(c.Context, ref, backend.RemoveOptions{Force: c.Bool("force"), Purge: purge})
	if errors.Is(err, backend.ErrStackNotFound) {
		return fmt.Errorf("stack %q does not exist in project %s", ref.Name, ref.Project)
	}
	if err != nil {
		return err
	}
	if !c.Bool("preserve-config") {
		if err := os.Remove(s.project.StackConfigPath(ref.Name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if sel, _ := workspace.SelectedStack(s.home, s.project); sel == ref.Name {
		if err := workspace.SelectStack(s.home, s.project, ""); err != nil {
			return err
		}
	}
	fmt.Fprintf(s.stdout, "Stack %q has been removed.\n", ref.Name)
	return s.reportKept(c, ref, removed)
}

// reportKept says what a stack's removal kept or purged and, on a
// terminal, offers to remove what it kept.
func (s *session) reportKept(c *cli.Context, ref backend.StackRef, removed backend.Removed) error {
	if removed.Purged > 0 {
		fmt.Fprintf(s.stdout, "Removed the %d state%s kept of it.\n", removed.Purged, plural(removed.Purged))
	}
	if removed.Kept == 0 {
		return nil
	}
	fmt.Fprintf(s.stdout, "Kept %d state%s of %s in %s, for `cairn stack restore --stack %s`; "+
		"remove them with `cairn stack rm --purge %s`.\n", removed.Kept, plural(removed.Kept), ref.Name, removed.Where, ref.Name, ref.Name)
	if c.Bool("yes") || !s.interactive() || !s.ask(fmt.Sprintf("Remove the states kept of %s now?", ref.Name)) {
		return nil
	}
	purged, err := s.backend.RemoveStack(c.Context, ref, backend.RemoveOptions{Purge: true})
	if err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "Removed the %d state%s kept of it.\n", purged.Purged, plural(purged.Purged))
	return nil
}

// purgeRemoved removes the states kept of a stack removed earlier.
func (s *session) purgeRemoved(c *cli.Context, ref backend.StackRef) error {
	if err := s.confirm(c, fmt.Sprintf("This removes the states kept of the removed stack %q.", ref.Name)); err != nil {
		return err
	}
	purged, err := s.backend.RemoveStack(c.Context, ref, backend.RemoveOptions{Purge: true})
	if errors.Is(err, backend.ErrStackNotFound) {
		return fmt.Errorf("stack %q does not exist in project %s, and no state of it is kept", ref.Name, ref.Project)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "Removed the %d state%s kept of the removed stack %q.\n", purged.Purged, plural(purged.Purged), ref.Name)
	return nil
}

// confirm asks the user to go ahead unless --yes: on a terminal it asks; off
// one it refuses with a message saying to pass --yes.
func (s *session) confirm(c *cli.Context, what string) error {
	if c.Bool("yes") {
		return nil
	}
	if !s.interactive() {
		return &exitError{code: 1, msg: fmt.Sprintf("`%s` needs confirmation, but this is not an interactive terminal; pass --yes to go ahead", commandPath(c))}
	}
	if !s.ask(what + " Do you want to go ahead?") {
		return &exitError{code: 1, msg: "cancelled"}
	}
	return nil
}

// ask asks a question on the terminal; the answer is no unless the user
// says yes.
func (s *session) ask(question string) bool {
	fmt.Fprintf(s.stderr, "%s [y/N] ", question)
	var answer string
	fmt.Fscanln(s.stdin, &answer)
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}

func stackHistory(c *cli.Context) error {
	s, err := stateSession(c)
	if err != nil {
		return err
	}
	recs, err := s.backend.History(c.Context, s.ref(s.stack))
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return writeJSON(s.stdout, recs)
	}
	if len(recs) == 0 {
		fmt.Fprintln(s.stdout, "The stack has no history yet.")
		return nil
	}

	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "VERSION\tKIND\tSTART\tDURATION\tRESULT\tCHANGES\tMESSAGE")
	for _, r := range recs {
		start := time.Unix(r.StartTime, 0)
		dur := time.Duration(r.EndTime-r.StartTime) * time.Second
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Version, r.Kind, start.Format("2006-01-02 15:04:05"), dur, r.Result,
			changeText(r.ResourceChanges), r.Message)
		for _, p := range r.Policies {
			fmt.Fprintf(w, "\t%s policy %s/%s violated by %s\n", p.EnforcementLevel, p.PolicyPackName, p.PolicyName, cmp.Or(string(p.ResourceURN), "the stack"))
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if oldest := recs[len(recs)-1].Version; oldest > 1 {
		fmt.Fprintf(s.stdout, "Versions 1 to %d were pruned.\n", oldest-1)
	}
	return nil
}

// changeText renders counts by kind: "2 created, 1 updated".
func changeText(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func stackUnlock(c *cli.Context) error {
	s, err := stateSession(c)
	if err != nil {
		return err
	}
	info, err := s.backend.Unlock(c.Context, s.ref(s.stack))
	if err != nil {
		return err
	}
	if info == nil {
		fmt.Fprintf(s.stdout, "Stack %q was not locked.\n", s.stack)
	} else {
		fmt.Fprintf(s.stdout, "Broke the lock of stack %q held by %s.\n", s.stack, info)
	}
	return nil
}

func stackRestore(c *cli.Context) error {
	s, err := newSession(c, true)
	if err != nil {
		return err
	}
	ref, err := s.namedRef()
	if err != nil {
		return err
	}
	v, err := s.backend.Restore(c.Context, ref, c.Int("version"))
	if err != nil {
		return err
	}
	if v == 0 {
		fmt.Fprintf(s.stdout, "Restored the last kept state of stack %q.\n", ref.Name)
	} else {
		fmt.Fprintf(s.stdout, "Restored the state of stack %q written by operation version %d.\n", ref.Name, v)
	}
	return nil
}

func stackOutput(c *cli.Context) error {
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	show := c.Bool("show-secrets")
	outs, err := s.outputs()
	if err != nil {
		return err
	}
	if name := c.Args().First(); name != "" {
		v, ok := outs[name]
		if !ok {
			return fmt.Errorf("the stack has no output %q; it has: %s", name, strings.Join(outs.SortedKeys(), ", "))
		}
		if c.Bool("json") {
			return writeJSON(s.stdout, plainOutput(v, show))
		}
		fmt.Fprintln(s.stdout, outputText(plainOutput(v, show)))
		return nil
	}
	if c.Bool("json") {
		m := map[string]any{}
		for k, v := range outs {
			m[k] = plainOutput(v, show)
		}
		return writeJSON(s.stdout, m)
	}
	return writeOutputs(s.stdout, outs, show)
}

// outputs reads the stack's outputs.
func (s *session) outputs() (resource.Map, error) {
	sm, err := s.stackSecrets()
	if err != nil {
		return nil, err
	}
	return s.backend.Outputs(s.c.Context, s.ref(s.stack), sm)
}

// writeOutputs prints a stack's outputs as a table, secrets masked unless
// show.
func writeOutputs(out io.Writer, outs resource.Map, show bool) error {
	if len(outs) == 0 {
		fmt.Fprintln(out, "The stack has no outputs.")
		return nil
	}
	fmt.Fprintf(out, "Current stack outputs (%d):\n", len(outs))
	w := tabwriter.NewWriter(out, 0, 0, 4, ' ', 0)
	fmt.Fprintln(w, "    OUTPUT\tVALUE")
	for _, k := range outs.SortedKeys() {
		fmt.Fprintf(w, "    %s\t%s\n", k, outputText(plainOutput(outs[k], show)))
	}
	return w.Flush()
}

// plainOutput is an output's value for printing: "[secret]" for a secret
// unless show.
func plainOutput(v resource.Value, show bool) any {
	if !show && v.ContainsSecrets() {
		return "[secret]"
	}
	return v.ToGo()
}

// outputText renders an output: strings as they are, the rest as JSON.
func outputText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, _ := json.Marshal(v)
	return string(data)
}

func stackExport(c *cli.Context) error {
	s, err := stateSession(c)
	if err != nil {
		return err
	}
	opts := backend.ExportOptions{ShowSecrets: c.Bool("show-secrets")}
	if opts.ShowSecrets {
		cfg, err := s.stackConfig()
		if err != nil {
			return err
		}
		if opts.Secrets, err = s.secrets(cfg); err != nil {
			return err
		}
	}
	dep, err := s.backend.Export(c.Context, s.ref(s.stack), opts)
	if err != nil {
		return err
	}
	if f := c.String("file"); f != "" {
		return writeFile(f, func(w io.Writer) error { return writeJSON(w, dep) })
	}
	return writeJSON(s.stdout, dep)
}

func stackImport(c *cli.Context) error {
	if tf := c.String("from-terraform"); tf != "" {
		if c.IsSet("file") || c.Bool("force") {
			return usageError(c, "--from-terraform reads a Terraform state and checks it itself; it takes neither --file nor --force")
		}
		return importTerraform(c, tf)
	}
	s, err := stateSession(c)
	if err != nil {
		return err
	}
	in := s.stdin
	if f := c.String("file"); f != "" {
		file, err := os.Open(f)
		if err != nil {
			return err
		}
		defer file.Close()
		in = file
	}
	var dep state.UntypedDeployment
	if err := json.NewDecoder(in).Decode(&dep); err != nil {
		return fmt.Errorf("the deployment to import is not valid JSON: %w", err)
	}
	sm, err := s.stackSecrets()
	if err != nil {
		return err
	}
	if err := s.backend.Import(c.Context, s.ref(s.stack), &dep, backend.ImportOptions{Secrets: sm, Force: c.Bool("force")}); err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "Imported the state of stack %q.\n", s.stack)
	return nil
}

func stackGraph(c *cli.Context) error {
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	write := map[string]func(io.Writer, *snapshot.Snapshot) error{"dot": display.WriteDOT, "mermaid": display.WriteMermaid}[c.String("format")]
	if write == nil {
		return &exitError{code: 2, msg: fmt.Sprintf("--format %q: use dot or mermaid", c.String("format"))}
	}
	sm, err := s.stackSecrets()
	if err != nil {
		return err
	}
	snap, err := s.backend.Snapshot(c.Context, s.ref(s.stack), sm)
	if err != nil {
		return err
	}
	if f := c.Args().First(); f != "" {
		return writeFile(f, func(w io.Writer) error { return write(w, snap) })
	}
	return write(s.stdout, snap)
}

// writeFile creates the file at path and fills it with write, reporting the
// error of writing or, failing that, of closing the file.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
