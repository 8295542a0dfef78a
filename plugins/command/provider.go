package command

import (
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

// Version is the version of pulumi-command whose local resource and function
// the provider serves.
const Version = "1.2.1"

// The tokens the provider serves.
const (
	CommandType = "command:local:Command"
	RunFunction = "command:local:run"
)

//go:embed schema.json
var schemaJSON []byte

var pkg = props.MustLoad(schemaJSON, Version)

// Provider is the provider of the "command" package.
type Provider struct {
	props.Base
	Runs
}

// New returns a provider of the "command" package.
func New() *Provider {
	return &Provider{Base: props.Base{Schema: pkg}}
}

// Factory returns the factory of the provider, for a provider.Host.
func Factory() provider.Factory {
	return provider.Factory{Pkg: pkg.Name, Version: Version, New: func(context.Context) (provider.Provider, error) {
		return New(), nil
	}}
}

// Check validates a command's inputs; it applies no defaults.
func (p *Provider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	return p.CheckInputs(req)
}

// Diff replaces a command whose triggers changed and updates one whose other
// inputs changed.
func (p *Provider) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	return p.DiffInputs(req)
}

// Create runs the create command, if there is one. A preview runs nothing
// and leaves the command's outputs unknown.
func (p *Provider) Create(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return provider.CreateResponse{}, err
	}
	command, ok := commandOf(req.Inputs, "create")
	outputs, err := p.apply(ctx, step{op: "create", command: command, set: ok, inputs: req.Inputs,
		timeout: req.Timeout, preview: req.Preview})
	if err != nil || req.Preview {
		return provider.CreateResponse{Outputs: outputs}, err
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix)
	return provider.CreateResponse{ID: resource.ID(req.Name + hex.EncodeToString(suffix)), Outputs: outputs}, nil
}

// Update runs the update command, or the create command when there is no
// update command; with neither, it keeps the old outputs. A preview runs
// nothing and leaves the outputs of a command that would run unknown.
func (p *Provider) Update(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return provider.UpdateResponse{}, err
	}
	s := step{op: "update", inputs: req.News, previous: req.OldOutputs, timeout: req.Timeout, preview: req.Preview}
	if s.command, s.set = commandOf(req.News, "update"); !s.set {
		s.op = "create"
		s.command, s.set = commandOf(req.News, "create")
	}
	outputs, err := p.apply(ctx, s)
	return provider.UpdateResponse{Outputs: outputs}, err
}

// Delete runs the delete command, if there is one, with the inputs and
// outputs the command was recorded with.
func (p *Provider) Delete(ctx context.Context, req provider.DeleteRequest) error {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return err
	}
	state := req.Outputs
	if state == nil {
		state = req.Inputs
	}
	command, ok := commandOf(state, "delete")
	_, err := p.apply(ctx, step{op: "delete", command: command, set: ok, inputs: state, previous: state, timeout: req.Timeout})
	return err
}

// Read returns a command as recorded: what it did cannot be read back, and
// it cannot be imported.
func (p *Provider) Read(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	if _, err := props.Resource(pkg, req.Type); err != nil {
		return provider.ReadResponse{}, err
	}
	if req.Outputs == nil {
		return provider.ReadResponse{}, fmt.Errorf("a command cannot be imported: what it did cannot be read back; declare it, and its create command runs")
	}
	return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

// Invoke runs the command of command:local:run, previews included.
func (p *Provider) Invoke(ctx context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	fs, err := p.CheckArgs(req)
	if err != nil || len(fs) > 0 {
		return provider.InvokeResponse{Failures: fs}, err
	}
	command, _ := props.String(req.Args, "command")
	outputs, err := p.apply(ctx, step{op: "run", command: command, set: true, inputs: req.Args})
	return provider.InvokeResponse{Return: outputs}, err
}

// commandOf returns the command under key and whether there is one: a
// command that is unknown (in a preview) is one.
func commandOf(m resource.Map, key string) (string, bool) {
	command, _ := props.String(m, key)
	return command, !m[key].IsNull()
}

// step is one operation of the provider on a command.
type step struct {
	op       string // "create", "update", "delete" or "run"
	command  string
	set      bool         // whether there is a command to run
	inputs   resource.Map // the inputs it runs with
	previous resource.Map // the outputs of the last create or update, if any
	timeout  time.Duration
	preview  bool
}

// apply runs the step's command, if it has one, and returns the outputs: the
// inputs, with stdout, stderr, assets and archive from the command. Those
// are kept from the previous outputs when nothing runs, and unknown in a
// preview of a run.
func (p *Provider) apply(ctx context.Context, s step) (resource.Map, error) {
	outputs := s.inputs.Copy()
	switch {
	case !s.set:
		outputs["stdout"], outputs["stderr"] = resource.String(""), resource.String("")
		for _, k := range []string{"stdout", "stderr", "assets", "archive"} {
			if v, ok := s.previous[k]; ok {
				outputs[k] = v
			}
		}
	case s.preview:
		outputs["stdout"], outputs["stderr"] = resource.Unknown(), resource.Unknown()
		for in, out := range map[string]string{"assetPaths": "assets", "archivePaths": "archive"} {
			if _, ok := s.inputs[in]; ok {
				outputs[out] = resource.Unknown()
			}
		}
	default:
		inv, err := newInvocation(s.op, s.command, s.inputs, s.previous)
		if err != nil {
			return nil, err
		}
		ctx, cancel := p.Context(ctx)
		defer cancel()
		ran, err := inv.run(ctx, s.timeout)
		if err != nil {
			return nil, err
		}
		for k, v := range ran {
			outputs[k] = v
		}
	}
	if s.secretOutput() {
		for _, k := range []string{"stdout", "stderr"} {
			if v, ok := outputs[k]; ok {
				outputs[k] = resource.MakeSecret(v)
			}
		}
	}
	return outputs, nil
}

// runInputs are the inputs that reach the command's process: its text,
// interpreter, directory, environment and standard input.
var runInputs = []string{"create", "update", "delete", "interpreter", "dir", "environment", "stdin"}

// secretOutput reports whether what the command prints derives from a
// secret: an input that reaches its process, or the previous output it
// gets in its environment. Its stdout and stderr are then secret, as the
// output of a secret input is.
func (s step) secretOutput() bool {
	for _, k := range runInputs {
		if s.inputs[k].ContainsSecrets() {
			return true
		}
	}
	if add, ok := props.Bool(s.inputs, "addPreviousOutputInEnv"); add || !ok {
		return s.previous["stdout"].ContainsSecrets() || s.previous["stderr"].ContainsSecrets()
	}
	return false
}
