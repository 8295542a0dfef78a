package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/cairn-iac/cairn/engine/tfbackend"
	"github.com/cairn-iac/cairn/engine/workspace"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// backendURL is where the session's stacks are kept: CAIRN_BACKEND_URL
// (or PULUMI_BACKEND_URL) when set; else, in a Terraform configuration
// whose backend block says where Terraform keeps its state, beside it
// (see tfbackend.Backend.CairnURL); else the local backend under
// CAIRN_HOME.
func (s *session) backendURL() (string, error) {
	if u := chosenBackendURL(); u != "" {
		return u, nil
	}
	def := defaultBackendURL(s.home)
	tf, err := terraformBackend(s.terraformDir())
	if err != nil || tf == nil {
		return def, err
	}
	if tf.Backend == nil || !tf.Holds() {
		s.warn(fmt.Sprintf("Cairn cannot keep its stacks in Terraform's %q backend, so it keeps them in %s; "+
			"set CAIRN_BACKEND_URL to keep them elsewhere", tf.Type, def))
		return def, nil
	}
	u, err := tf.CairnURL()
	if err != nil {
		return "", tf.Error(err)
	}
	return u, nil
}

// terraformDir is the folder of the session's program: the project's, or
// the current folder when the command needs no project.
func (s *session) terraformDir() string {
	if s.project != nil {
		return s.project.ProgramDir()
	}
	return s.cwd
}

// terraformBackend reads the backend block of the Terraform
// configuration in dir; nil when dir holds no Terraform files or no
// backend block.
func terraformBackend(dir string) (*langhcl.BackendBlock, error) {
	if len(workspace.TerraformFiles(dir)) == 0 {
		return nil, nil
	}
	return langhcl.Backend(dir, os.Getenv)
}

// readTerraformState reads the Terraform state that `stack import
// --from-terraform SOURCE` names: a state file; a folder of Terraform
// configuration files, whose backend (the local one, without a backend
// block) holds the state of the workspace named as the stack, as
// terraform.workspace is; or the URL of a state (s3://, gs://, azblob://,
// http(s)://; see tfbackend.FromURL). It returns the state and where it
// was read, for messages. A state read while Terraform's lock on it is
// held is read all the same, as `terraform state pull` reads it, with a
// warning.
func readTerraformState(ctx context.Context, source, stack string, warn func(string)) ([]byte, string, error) {
	if strings.Contains(source, "://") {
		b, ws, err := tfbackend.FromURL(source, os.Getenv)
		if err != nil {
			return nil, "", fmt.Errorf("--from-terraform %s: %w", source, err)
		}
		return readBackendState(ctx, b, ws, nil, warn)
	}
	info, err := os.Stat(source)
	if err != nil {
		return nil, "", err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(source)
		return data, source, err
	}
	tf, err := terraformBackend(source)
	if err != nil {
		return nil, "", err
	}
	if tf == nil {
		b, err := tfbackend.New("local", nil, tfbackend.Options{Dir: source})
		if err != nil {
			return nil, "", err
		}
		return readBackendState(ctx, b, stack, nil, warn)
	}
	if tf.Backend == nil {
		_, err := tfbackend.New(tf.Type, nil, tfbackend.Options{})
		return nil, "", tf.Error(err)
	}
	return readBackendState(ctx, tf.Backend, stack, tf, warn)
}

// readBackendState reads the state of a workspace from a backend, after a
// look at its lock; tf, when set, places errors of the arguments.
func readBackendState(ctx context.Context, b *tfbackend.Backend, ws string, tf *langhcl.BackendBlock, warn func(string)) ([]byte, string, error) {
	if !b.Workspaces() {
		ws = "default"
	}
	where := b.Where(ws)
	if lock, err := b.Lock(ctx, ws); err != nil {
		warn(err.Error())
	} else if lock != nil {
		warn(fmt.Sprintf("Terraform's lock on %s is %s: the state may change while it is read; import again once the operation has finished", where, lock))
	}
	data, err := b.ReadState(ctx, ws)
	if err != nil && tf != nil {
		if ae := (*tfbackend.ArgError)(nil); errors.As(err, &ae) {
			return nil, "", tf.Error(err)
		}
	}
	if errors.Is(err, tfbackend.ErrNoState) && b.Workspaces() && ws != "default" {
		err = fmt.Errorf("%w\nThe workspace read is the stack's name, as terraform.workspace is; to move the default workspace's state in, import it into a stack named default (`cairn stack init default`)", err)
	}
	return data, where, err
}
