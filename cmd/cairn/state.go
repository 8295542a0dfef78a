package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
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
func editState(c *cli.Context, s *session, edit func(snap *deploy.Snapshot) (*deploy.Snapshot, error)) error {
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
	if err == nil {
		err = snap.VerifyIntegrity()
	}
	if err != nil {
		_ = op.Finish(c.Context, op.Base(), backend.Summary{Err: err})
		return err
	}
	return op.Finish(c.Context, snap, backend.Summary{Changes: map[deploy.Op]int{}})
}

// stackSession opens a session on the project's stack, which must exist.
func stackSession(c *cli.Context) (*session, error) {
	s, err := newSession(c, true)
	if err != nil {
		return nil, err
	}
	return s, s.useStack()
}

// findURN returns the index of the live resource with the URN.
func findURN(snap *deploy.Snapshot, urn string) (int, error) {
	for i, r := range snap.Resources {
		if string(r.URN) == urn && !r.Delete {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no resource %s in the stack's state; `cairn stack export` lists them", urn)
}

func stateDelete(c *cli.Context) error {
	urn, err := oneArg(c, "URN")
	if err != nil {
		return err
	}
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	if err := s.confirm(c, fmt.Sprintf("This forgets %s; the resource itself is not deleted.", urn)); err != nil {
		return err
	}
	return editState(c, s, func(snap *deploy.Snapshot) (*deploy.Snapshot, error) {
		i, err := findURN(snap, urn)
		if err != nil {
			return nil, err
		}
		r := snap.Resources[i]
		if r.Protect && !c.Bool("force") {
			return nil, fmt.Errorf("%s is protected; run `cairn state unprotect` first, or pass --force", urn)
		}
		var users []string
		for _, o := range snap.Resources {
			if o == r {
				continue
			}
			for _, ref := range o.References() {
				if ref == r.URN {
					users = append(users, string(o.URN))
					break
				}
			}
		}
		if len(users) > 0 {
			return nil, fmt.Errorf("other resources depend on %s or are its children; forget them first:\n  %s", urn, strings.Join(users, "\n  "))
		}
		out := &deploy.Snapshot{PendingOperations: snap.PendingOperations}
		out.Resources = append(append([]*resource.State(nil), snap.Resources[:i]...), snap.Resources[i+1:]...)
		fmt.Fprintf(c.App.Writer, "Forgot %s.\n", urn)
		return out, nil
	})
}

func stateUnprotect(c *cli.Context) error {
	urn, err := oneArg(c, "URN")
	if err != nil {
		return err
	}
	s, err := stackSession(c)
	if err != nil {
		return err
	}
	return editState(c, s, func(snap *deploy.Snapshot) (*deploy.Snapshot, error) {
		i, err := findURN(snap, urn)
		if err != nil {
			return nil, err
		}
		out := &deploy.Snapshot{Resources: append([]*resource.State(nil), snap.Resources...), PendingOperations: snap.PendingOperations}
		r := out.Resources[i].Copy()
		r.Protect = false
		out.Resources[i] = r
		fmt.Fprintf(c.App.Writer, "%s is no longer protected.\n", urn)
		return out, nil
	})
}
