package langtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// Stack runs the programs of a project folder against one stack of the
// project "roundtrip", keeping its snapshot between operations.
type Stack struct {
	t    *testing.T
	load Load
	Dir  string
	Snap *snapshot.Snapshot
	// preview makes the next update a preview.
	preview bool
}

// NewStack makes a stack whose project is in a new temporary folder.
func NewStack(t *testing.T, load Load) *Stack { return &Stack{t: t, load: load, Dir: t.TempDir()} }

// Write replaces a file of the project.
func (s *Stack) Write(name, src string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(s.Dir, name)), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, name), []byte(src), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// steps runs op and returns its logical steps but sames as "op name",
// sorted.
func (s *Stack) steps(op func(deploy.Options, *snapshot.Snapshot) (*deploy.Result, error), withProgram bool) []string {
	s.t.Helper()
	var mu sync.Mutex
	var steps []string
	opts := deploy.Options{Project: "roundtrip", Stack: "test", Host: Host, SeedKey: seedKey,
		Events: func(e deploy.Event) {
			if st, ok := e.(deploy.StepEvent); ok && st.Phase == deploy.StepDone && st.Logical && st.Op != deploy.OpSame {
				mu.Lock()
				steps = append(steps, fmt.Sprintf("%s %s", st.Op, st.URN.Name()))
				mu.Unlock()
			}
		}}
	if withProgram {
		opts.DryRun = s.preview
		prog, diags := s.load(s.Dir)
		if diags.HasErrors() {
			s.t.Fatal(diags)
		}
		opts.Program = prog
	}
	res, err := op(opts, s.Snap)
	if err != nil {
		s.t.Fatal(err)
	}
	if !opts.DryRun {
		s.Snap = res.Snapshot
	}
	sort.Strings(steps)
	return steps
}

// Up updates the stack with the project's program and returns its steps.
func (s *Stack) Up() []string {
	return s.steps(func(o deploy.Options, b *snapshot.Snapshot) (*deploy.Result, error) {
		return deploy.Update(context.Background(), o, b)
	}, true)
}

// Preview previews an update of the stack with the project's program and
// returns its steps; the stack keeps its snapshot.
func (s *Stack) Preview() []string {
	s.preview = true
	defer func() { s.preview = false }()
	return s.Up()
}

// Destroy destroys the stack and returns its steps.
func (s *Stack) Destroy() []string {
	return s.steps(func(o deploy.Options, b *snapshot.Snapshot) (*deploy.Result, error) {
		return deploy.Destroy(context.Background(), o, b)
	}, false)
}

// Find returns the state of the resource named name, or nil.
func (s *Stack) Find(name string) *resource.State {
	for _, r := range s.Snap.Resources {
		if r.URN.Name() == name && !r.Delete {
			return r
		}
	}
	return nil
}

// Equal reports a difference between got and want, compared as printed.
func Equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: wrong result\ngot:  %v\nwant: %v", what, got, want)
	}
}
