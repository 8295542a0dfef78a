package main

import (
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
	"github.com/cairn-iac/cairn/engine/workspace"
)

func stateCommand() *cli.Command {
	return &cli.Command{
		Name:  "state",
		Usage: "edit the stack's state directly",
		Description: `These commands change what the state records without touching the
resources themselves; the next update reconciles the difference.`,
		Subcommands: []*cli.Command{
			{
				Name: "delete", Aliases: []string{"rm"}, Usage: "forget a resource (it keeps existing)", ArgsUsage: "URN",
				UsageText: "cairn state delete 'urn:pulumi:dev::web::random:index/randomPet:RandomPet::name' --yes",
				Flags: []cli.Flag{
					&cli.BoolFlag{Name: "yes", Aliases: []string{"y"}, Usage: "do not ask for confirmation"},
					&cli.BoolFlag{Name: "force", Usage: "forget a protected resource too"},
				},
				Action: stateDelete,
			},
			{
				Name: "unprotect", Usage: "clear the protect flag of a resource", ArgsUsage: "URN",
				UsageText: "cairn state unprotect 'urn:pulumi:dev::web::random:index/randomPet:RandomPet::name'",
				Action:    stateUnprotect,
			},
		},
	}
}

// editState runs edit over the stack's state under its lock and writes the
// result.
func editState(c *cli.Context, s *session, edit func(snap *snapshot.Snapshot) (*snapshot.Snapshot, error)) error {
	sm, err := s.stackSecrets()
	if err != nil {
		return err
	}
	lock, err := s.backend.Lock(c.Context, s.ref(s.stack))
	if err != nil {
		return err
	}
	defer lock.Release()
	op, err := lock.Begin(c.Context, backend.OperationInfo{Kind: backend.OperationKind("state-edit"), Secrets: sm})
	if err != nil {
		return err
	}
	snap, err := edit(op.Base())
	if nf := (*snapshot.NotFoundError)(nil); errors.As(err, &nf) {
		err = fmt.Errorf("%w; `cairn stack export` lists them", err)
	}
	if err == nil {
		err = snap.VerifyIntegrity()
	}
	if err != nil {
		_ = op.Finish(c.Context, op.Base(), backend.Summary{Err: err})
		return err
	}
	return op.Finish(c.Context, snap, backend.Summary{})
}

// stackSession opens a session on the project's stack, which must exist.
func stackSession(c *cli.Context) (*session, error) {
	s, err := newSession(c, true)
	if err != nil {
		return nil, err
	}
	return s, s.useStack()
}

// stateSession is stackSession for a command that reads or writes only the
// stack's state, not the program, so that it works while the project file
// does not parse.
func stateSession(c *cli.Context) (*session, error) {
	s, err := newSession(c, false)
	if err != nil {
		return nil, err
	}
	if s.project, err = s.projectByName(); err != nil {
		return nil, err
	}
	return s, s.useStack()
}

// projectByName loads the project; when its file does not parse, the
// project named on its `name:` line, with a warning.
func (s *session) projectByName() (*workspace.Project, error) {
	p, err := workspace.LoadProject(s.cwd)
	se := (*workspace.SyntaxError)(nil)
	if !errors.As(err, &se) {
		return p, err
	}
	if p = workspace.ProjectNameOnly(se); p == nil {
		return nil, err
	}
	s.warn(fmt.Sprintf("%v\n(this command needs only the project's name, so it goes on with project %s)", se, p.Name))
	return p, nil
}

func stateDelete(c *cli.Context) error {
	urn := c.Args().First()
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	if err := s.confirm(c, fmt.Sprintf("This forgets %s; the resource itself is not deleted.", urn)); err != nil {
		return err
	}
	return editState(c, s, func(snap *snapshot.Snapshot) (*snapshot.Snapshot, error) {
		out, err := snap.Forget(resource.URN(urn), c.Bool("force"))
		if err == nil {
			fmt.Fprintf(c.App.Writer, "Forgot %s.\n", urn)
		}
		return out, err
	})
}

func stateUnprotect(c *cli.Context) error {
	urn := c.Args().First()
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	return editState(c, s, func(snap *snapshot.Snapshot) (*snapshot.Snapshot, error) {
		out, err := snap.Unprotect(resource.URN(urn))
		if err == nil {
			fmt.Fprintf(c.App.Writer, "%s is no longer protected.\n", urn)
		}
		return out, err
	})
}
