package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
)

func stackHistoryPruneCommand() *cli.Command {
	return &cli.Command{
		Name: "prune", Usage: "remove the stack's older operations from its history, with the states they wrote",
		UsageText: "cairn stack history prune --keep 20 --dry-run\ncairn stack history prune --keep 20 --yes",
		Description: `Every state a stack had is kept, so that ` + "`cairn stack restore --version N`" + `
can bring it back. prune keeps the newest N operations of the history and
the states they wrote, and removes the others, with the states kept before
them. The current state is always kept, and the stack is locked while it
runs. Versions keep their numbers; restoring a pruned one is an error.`,
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "keep", Usage: "keep the newest `N` operations (1 or more)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "say what would be removed, and remove nothing"},
			&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"},
		},
		Action: stackHistoryPrune,
	}
}

func stackHistoryPrune(c *cli.Context) error {
	if !c.IsSet("keep") {
		return &exitError{code: 2, msg: "`cairn stack history prune` needs --keep N, the number of newest operations to keep " +
			"with their states (see `cairn stack history`); --dry-run shows what would go"}
	}
	opts := backend.PruneOptions{Keep: c.Int("keep"), DryRun: true}
	if err := opts.Check(); err != nil {
		return &exitError{code: 2, msg: "--keep: " + err.Error()}
	}
	s, err := stateSession(c)
	if err != nil {
		return err
	}
	ref := s.ref(s.stack)
	plan, err := s.backend.PruneHistory(c.Context, ref, opts)
	if err != nil {
		return err
	}
	if len(plan.Versions) == 0 {
		return nothingToPrune(s, ref, plan)
	}
	if c.Bool("dry-run") {
		fmt.Fprintf(s.stdout, "Pruning would remove %s.\n", pruneText(ref, plan))
		return nil
	}
	if err := s.confirm(c, fmt.Sprintf("This removes %s.", pruneText(ref, plan))); err != nil {
		return err
	}
	opts.DryRun = false
	done, err := s.backend.PruneHistory(c.Context, ref, opts)
	if err != nil {
		return err
	}
	if len(done.Versions) == 0 { // pruned by another process meanwhile
		return nothingToPrune(s, ref, done)
	}
	fmt.Fprintf(s.stdout, "Removed %s.\n", pruneText(ref, done))
	return nil
}

func nothingToPrune(s *session, ref backend.StackRef, p backend.Pruned) error {
	fmt.Fprintf(s.stdout, "Nothing to prune: stack %q has %d operation%s in its history.\n", ref.Name, len(p.Kept), plural(len(p.Kept)))
	return nil
}

// pruneText says what a prune removes and keeps: "versions 1 to 4 of the
// history of stack "dev" and the 5 states kept before version 5; versions
// 5 to 6 stay".
func pruneText(ref backend.StackRef, p backend.Pruned) string {
	stay := "stay"
	if len(p.Kept) == 1 {
		stay = "stays"
	}
	return fmt.Sprintf("%s of the history of stack %q and the %d state%s kept before version %d; %s %s",
		versionsText(p.Versions), ref.Name, p.States, plural(p.States), p.Kept[0], versionsText(p.Kept), stay)
}

func versionsText(versions []int) string {
	if len(versions) == 1 {
		return "version " + backend.VersionRange(versions)
	}
	return "versions " + backend.VersionRange(versions)
}
