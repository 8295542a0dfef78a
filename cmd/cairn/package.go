package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/workspace"
)

func packageCommand() *cli.Command {
	return &cli.Command{
		Name:  "package",
		Usage: "work with the packages of the project",
		Subcommands: []*cli.Command{{
			Name:      "add",
			Usage:     "add a package served by a parameterized provider to Pulumi.yaml, as pulumi package add does",
			ArgsUsage: "PROVIDER[@VERSION] [ARG]...",
			UsageText: "cairn package add terraform-provider hashicorp/random\ncairn package add kv@1.0.0 -- bucket",
			Action:    packageAdd,
		}},
	}
}

// packageAdd boots the provider, parameterizes it with the arguments and
// records the package it then serves under Pulumi.yaml `packages:`.
func packageAdd(c *cli.Context) error {
	s, err := newSession(c, true)
	if err != nil {
		return err
	}
	if s.project.Implied {
		return fmt.Errorf("%s has no Pulumi.yaml to record the package in; declare the provider in required_providers of a terraform block instead, or create a Pulumi.yaml (name: and runtime: hcl)", s.project.Dir)
	}
	source, version, _ := strings.Cut(c.Args().First(), "@")
	args := append([]string{}, c.Args().Tail()...)
	relay := &diagRelay{}
	h, err := s.providerHost(nil, relay)
	if err != nil {
		return err
	}
	defer h.Close()
	p, err := h.Load(c.Context, source, version)
	if err != nil {
		return err
	}
	defer p.Close()
	info, err := p.GetPluginInfo(c.Context)
	if err != nil {
		return err
	}
	resp, err := p.Parameterize(c.Context, provider.ParameterizeRequest{Args: args})
	if err != nil {
		return fmt.Errorf("parameterizing the %s provider with %q: %w", source, args, err)
	}
	spec := workspace.PackageSpec{Source: source, Version: info.Version, Parameters: args}
	if err := workspace.AddPackage(s.project.Path, resp.Name, spec); err != nil {
		return err
	}
	fmt.Fprintf(s.stdout, "added package %s %s to %s, served by the %s provider %s parameterized with %q\n",
		resp.Name, resp.Version, s.project.Path, source, orDash(info.Version), args)
	return nil
}
