package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

func pluginCommand() *cli.Command {
	return &cli.Command{
		Name:  "plugin",
		Usage: "list provider plugins, and serve built-in providers as plugins",
		Subcommands: []*cli.Command{
			{
				Name: "ls", Usage: "show which provider serves each package", UsageText: "cairn plugin ls",
				Action: func(c *cli.Context) error { return fmt.Errorf("not wired yet") },
			},
		},
	}
}
