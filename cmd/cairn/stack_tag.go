package main

import (
	"fmt"
	"maps"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
)

func stackTagCommand() *cli.Command {
	return &cli.Command{
		Name: "tag", Usage: "set, show and remove the stack's tags",
		Subcommands: []*cli.Command{
			{
				Name: "set", Usage: "set a tag of the stack", ArgsUsage: "NAME VALUE",
				UsageText: "cairn stack tag set team payments",
				Action: func(c *cli.Context) error {
					return updateTags(c, func(stack string, tags backend.Tags, args []string) error {
						tags[args[0]] = args[1]
						return nil
					})
				},
			},
			{
				Name: "rm", Usage: "remove a tag of the stack", ArgsUsage: "NAME",
				UsageText: "cairn stack tag rm team",
				Action: func(c *cli.Context) error {
					return updateTags(c, func(stack string, tags backend.Tags, args []string) error {
						if _, ok := tags[args[0]]; !ok {
							return fmt.Errorf("stack %s has no tag %q", stack, args[0])
						}
						delete(tags, args[0])
						return nil
					})
				},
			},
			{
				Name: "get", Usage: "print the value of a tag of the stack", ArgsUsage: "NAME",
				UsageText: "cairn stack tag get team",
				Action:    stackTagGet,
			},
			{
				Name: "ls", Usage: "list the stack's tags", UsageText: "cairn stack tag ls [--json]",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print JSON"}},
				Action: stackTagLs,
			},
		},
	}
}

// updateTags reads the stack's tags, changes them with the command's
// arguments and writes them back.
func updateTags(c *cli.Context, change func(stack string, tags backend.Tags, args []string) error) error {
	s, tags, err := stackTags(c)
	if err != nil {
		return err
	}
	if err := change(s.stack, tags, c.Args().Slice()); err != nil {
		return err
	}
	return s.backend.SetTags(c.Context, s.ref(s.stack), tags)
}

// stackTags reads the tags of the command's stack.
func stackTags(c *cli.Context) (*session, backend.Tags, error) {
	s, err := stateSession(c)
	if err != nil {
		return nil, nil, err
	}
	tags, err := s.backend.Tags(c.Context, s.ref(s.stack))
	return s, tags, err
}

func stackTagGet(c *cli.Context) error {
	s, tags, err := stackTags(c)
	if err != nil {
		return err
	}
	value, ok := tags[c.Args().First()]
	if !ok {
		return fmt.Errorf("stack %s has no tag %q", s.stack, c.Args().First())
	}
	fmt.Fprintln(s.stdout, value)
	return nil
}

func stackTagLs(c *cli.Context) error {
	s, tags, err := stackTags(c)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return writeJSON(s.stdout, tags)
	}
	for _, name := range slices.Sorted(maps.Keys(tags)) {
		fmt.Fprintf(s.stdout, "%s\t%s\n", name, tags[name])
	}
	return nil
}
