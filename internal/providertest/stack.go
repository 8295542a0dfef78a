package providertest

import (
	"context"
	"crypto/rand"
	"sort"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// The names of the stack the operations run on.
const (
	Project   = "proj"
	StackName = "dev"
)

// Stack is one stack, driven through deploy.Update and deploy.Destroy.
type Stack struct {
	t        testing.TB
	host     provider.Host
	seedKey  []byte
	Snapshot *snapshot.Snapshot
}

// New returns an empty stack whose providers come from host. Its first
// preview and update share a seed key, so they agree on random values.
func New(t testing.TB, host provider.Host) *Stack {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &Stack{t: t, host: host, seedKey: key}
}

// Resource is a custom resource a program declares, under the root stack
// resource.
type Resource struct {
	Type       string
	Name       string
	Properties resource.Map
	// Timeouts are the custom timeouts of the resource, if any.
	Timeouts *resource.CustomTimeouts
}

// Program is a program body: it runs after the root stack resource, whose
// URN it is given, has been registered.
type Program func(ctx context.Context, m deploy.Monitor, root resource.URN) error

// Mode says how an update runs.
type Mode struct {
	DryRun   bool
	Replaces []string // URNs to replace whatever their diff says
}

// Run is what an operation did.
type Run struct {
	Result *deploy.Result
	// Responses are the registrations of Declare's resources, by name.
	Responses map[string]*deploy.RegisterResponse
	// Steps are "<op> <name>" for each logical step that finished, sorted.
	Steps []string
}

// Up declares rs and brings the stack to them.
func (s *Stack) Up(rs ...Resource) (*Run, error) { return s.Update(Mode{}, rs...) }

// Preview declares rs and previews what bringing the stack to them would do.
func (s *Stack) Preview(rs ...Resource) (*Run, error) { return s.Update(Mode{DryRun: true}, rs...) }

// Update declares rs, in order, and runs an update in the given mode.
func (s *Stack) Update(mode Mode, rs ...Resource) (*Run, error) {
	responses := map[string]*deploy.RegisterResponse{}
	prog := func(ctx context.Context, m deploy.Monitor, root resource.URN) error {
		for _, r := range rs {
			resp, err := m.RegisterResource(ctx, deploy.RegisterRequest{Type: r.Type, Name: r.Name, Custom: true,
				Parent: root, Properties: r.Properties, CustomTimeouts: r.Timeouts})
			if err != nil {
				return err
			}
			responses[r.Name] = resp
		}
		return nil
	}
	run, err := s.Program(mode, prog)
	run.Responses = responses
	return run, err
}

// Program runs an update in the given mode with a program of its own.
func (s *Stack) Program(mode Mode, prog Program) (*Run, error) {
	opts, steps := s.options(mode.DryRun)
	opts.Replaces = mode.Replaces
	opts.Program = deploy.ProgramFunc(func(ctx context.Context, info deploy.RunInfo) error {
		root, err := info.Monitor.RegisterResource(ctx, deploy.RegisterRequest{
			Type: resource.RootStackType, Name: info.Project + "-" + info.Stack})
		if err != nil {
			return err
		}
		return prog(ctx, info.Monitor, root.URN)
	})
	res, err := deploy.Update(context.Background(), opts, s.Snapshot)
	return s.finish(res, mode.DryRun, steps), err
}

// Destroy deletes every resource of the stack.
func (s *Stack) Destroy() (*Run, error) {
	opts, steps := s.options(false)
	res, err := deploy.Destroy(context.Background(), opts, s.Snapshot)
	return s.finish(res, false, steps), err
}

// Refresh reads every resource of the stack back from its provider.
func (s *Stack) Refresh() (*Run, error) {
	opts, steps := s.options(false)
	res, err := deploy.Refresh(context.Background(), opts, s.Snapshot)
	return s.finish(res, false, steps), err
}

// Find returns the live resource of the snapshot with the name, or nil.
func (s *Stack) Find(name string) *resource.State {
	if s.Snapshot == nil {
		return nil
	}
	for _, r := range s.Snapshot.Resources {
		if r.URN.Name() == name && !r.Delete {
			return r
		}
	}
	return nil
}

// URN returns the URN a custom resource of type typ named name has on this
// stack.
func URN(typ, name string) resource.URN {
	return resource.NewURN(StackName, Project, "", typ, name)
}

func (s *Stack) options(dryRun bool) (deploy.Options, *stepLog) {
	steps := &stepLog{}
	return deploy.Options{Project: Project, Stack: StackName, Host: s.host, DryRun: dryRun, Events: steps.add, SeedKey: s.seedKey}, steps
}

// finish checks the snapshot an operation produced and keeps it unless the
// operation was a preview.
func (s *Stack) finish(res *deploy.Result, dryRun bool, steps *stepLog) *Run {
	s.t.Helper()
	run := &Run{Result: res, Steps: steps.sorted()}
	if res == nil {
		return run
	}
	if err := res.Snapshot.VerifyIntegrity(); err != nil {
		s.t.Fatalf("the snapshot after the operation is invalid: %v", err)
	}
	if !dryRun {
		s.Snapshot = res.Snapshot
	}
	return run
}

// stepLog collects the logical steps that finished.
type stepLog struct {
	mu    sync.Mutex
	steps []string
}

func (l *stepLog) add(e deploy.Event) {
	s, ok := e.(deploy.StepEvent)
	if !ok || s.Phase != deploy.StepDone || !s.Logical {
		return
	}
	l.mu.Lock()
	l.steps = append(l.steps, string(s.Op)+" "+s.URN.Name())
	l.mu.Unlock()
}

func (l *stepLog) sorted() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]string(nil), l.steps...)
	sort.Strings(out)
	return out
}
