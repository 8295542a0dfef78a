package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/workspace"
)

func stackRenameCommand() *cli.Command {
	return &cli.Command{
		Name: "rename", Usage: "give the stack another name, with its history, backups and configuration file", ArgsUsage: "NEW-NAME",
		UsageText: "cairn stack rename production\ncairn stack rename production --stack prod",
		Description: `The URNs in the stack's state take the new name, as Pulumi's stack rename
does; Pulumi.<stack>.yaml is renamed, and the stack stays selected if it was.`,
		Action: stackRename,
	}
}

func stackRename(c *cli.Context) error {
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	from := s.ref(s.stack)
	to, err := s.parseRef(c.Args().First())
	if err != nil {
		return err
	}
	if err := s.backend.RenameStack(c.Context, from, to.Name); err != nil {
		return err
	}
	oldConfig, newConfig := s.project.StackConfigPath(from.Name), s.project.StackConfigPath(to.Name)
	if _, err := os.Stat(newConfig); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(oldConfig, newConfig); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("stack %s was renamed to %s, but its configuration file was not: %w", from.Name, to.Name, err)
		}
	} else {
		s.warn(fmt.Sprintf("%s exists already, so %s was kept as it is", newConfig, oldConfig))
	}
	if sel, err := workspace.SelectedStack(s.home, s.project); err == nil && sel == from.Name {
		if err := workspace.SelectStack(s.home, s.project, to.Name); err != nil {
			return err
		}
	}
	fmt.Fprintf(s.stdout, "Renamed stack %q to %q.\n", from.Name, to.Name)
	return nil
}
