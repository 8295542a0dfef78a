package tfbuiltin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/tfstate"
	"github.com/cairn-iac/cairn/internal/props"
	"github.com/cairn-iac/cairn/plugins/command"
)

// diffProvisioners replaces the provisioners of a resource that got a new
// ID (a replacement; unknown, in a preview, while it is planned): the new
// one runs them again. Those of a resource replaced create-before-destroy
// are updated instead, so that the old object's destroy-time provisioners
// do not run, as Terraform runs none for an object its replacement
// deposed. Any other change is recorded without running anything, as
// Terraform runs no provisioner on an update.
func diffProvisioners(req provider.DiffRequest) provider.DiffResponse {
	if !replaced(req.OldInputs, req.News) {
		return provider.DiffResponse{Changes: provider.DiffNone}
	}
	if cbd, _ := props.Bool(req.News, "createBeforeDestroy"); cbd {
		return provider.DiffResponse{Changes: provider.DiffSome, ChangedKeys: []string{tfstate.TriggerKey},
			DetailedDiff: resource.DetailedDiff{tfstate.TriggerKey: {Kind: resource.DiffUpdate}}}
	}
	return provider.DiffResponse{Changes: provider.DiffSome, ReplaceKeys: []string{tfstate.TriggerKey},
		ChangedKeys:  []string{tfstate.TriggerKey},
		DetailedDiff: resource.DetailedDiff{tfstate.TriggerKey: {Kind: resource.DiffUpdateReplace}}}
}

// replaced reports whether the resource the provisioners belong to has a
// new ID, or one not known yet.
func replaced(olds, news resource.Map) bool {
	old, id := olds[tfstate.TriggerKey], news[tfstate.TriggerKey]
	return id.ContainsUnknowns() || !old.Unsecret().Equal(id.Unsecret())
}

// updateProvisioners runs the creation-time provisioners of a resource
// replaced create-before-destroy (see diffProvisioners) and records the
// new ones; a preview runs nothing.
func (p *Provider) updateProvisioners(ctx context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if !req.Preview && replaced(req.OldInputs, req.News) {
		if err := p.provision(ctx, req.URN, req.News, "create"); err != nil {
			return provider.UpdateResponse{}, err
		}
	}
	return provider.UpdateResponse{Outputs: req.News}, nil
}

// createProvisioners runs the creation-time provisioners; a preview runs
// nothing. The ID is the resource's.
func (p *Provider) createProvisioners(ctx context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if req.Preview {
		return provider.CreateResponse{ID: resource.UnknownID, Outputs: req.Inputs}, nil
	}
	id, _ := props.String(req.Inputs, tfstate.TriggerKey)
	if id == "" {
		return provider.CreateResponse{}, fmt.Errorf("the provisioners of %s have no resource ID to follow", req.URN.Name())
	}
	if err := p.provision(ctx, req.URN, req.Inputs, "create"); err != nil {
		return provider.CreateResponse{}, err
	}
	return provider.CreateResponse{ID: resource.ID(id), Outputs: req.Inputs}, nil
}

// deleteProvisioners runs the destroy-time provisioners, with what the
// state recorded of them.
func (p *Provider) deleteProvisioners(ctx context.Context, req provider.DeleteRequest) error {
	in := req.Inputs
	if in == nil {
		in = req.Outputs
	}
	return p.provision(ctx, req.URN, in, "destroy")
}

// provision runs the provisioners of in under key in order. A failed one
// fails the step unless its on_failure is continue, which warns; one
// killed because the engine told the provider to stop fails it anyway.
func (p *Provider) provision(ctx context.Context, urn resource.URN, in resource.Map, key string) error {
	ctx, cancel := p.Context(ctx)
	defer cancel()
	list, secret := in[key], false
	for list.IsSecret() {
		list, secret = list.SecretElement(), true
	}
	if !list.IsArray() {
		return nil
	}
	typ, _ := props.String(in, "type")
	prefix := address(urn.Name(), typ) + " (local-exec): "
	for _, item := range list.ArrayValue() {
		sensitive := secret || item.ContainsSecrets()
		if item = item.Unsecret(); !item.IsObject() {
			continue
		}
		pv := item.ObjectValue()
		out := &lineWriter{emit: func(line string) { p.log(urn, deploy.SeverityInfo, prefix+line) }}
		cmd, _ := props.String(pv, "command")
		err := p.runProvisioner(ctx, cmd, pv, sensitive, out)
		out.flush()
		if err == nil {
			continue
		}
		if failure, _ := props.String(pv, "onFailure"); failure == "continue" && ctx.Err() == nil {
			p.log(urn, deploy.SeverityWarning, prefix+"the command failed and on_failure is continue, so the step goes on: "+err.Error())
			continue
		}
		return fmt.Errorf("local-exec provisioner error: %w", err)
	}
	return nil
}

// runProvisioner runs one local-exec command, announcing it unless quiet,
// and writing what it prints to out; a sensitive provisioner's command and
// output are suppressed, as Terraform suppresses them.
func (p *Provider) runProvisioner(ctx context.Context, cmd string, pv resource.Map, sensitive bool, out *lineWriter) error {
	inputs := resource.Map{"dir": resource.String(p.dir)}
	if dir, _ := props.String(pv, "workingDir"); dir != "" {
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(p.dir, dir)
		}
		inputs["dir"] = resource.String(dir)
	}
	for from, to := range map[string]string{"interpreter": "interpreter", "environment": "environment"} {
		if v, ok := pv[from]; ok {
			inputs[to] = v.Unsecret()
		}
	}
	interpreter, _ := props.Strings(inputs, "interpreter")
	if len(interpreter) == 0 {
		interpreter = []string{"/bin/sh", "-c"}
	}
	quiet, _ := props.Bool(pv, "quiet")
	switch {
	case sensitive:
		out.emit("(output suppressed due to sensitive value in config)")
	case quiet:
		out.emit("Executing: Suppressed by quiet=true")
	default:
		out.emit("Executing: " + quoteList(append(interpreter, cmd)))
	}
	var echo io.Writer = out
	if sensitive {
		echo = io.Discard
	}
	err := command.Run(ctx, "local-exec", cmd, inputs, echo)
	var failed *command.Error
	if sensitive && errors.As(err, &failed) {
		return fmt.Errorf("the command failed with exit code %d (its output is suppressed: its configuration is sensitive)", failed.ExitCode)
	}
	return err
}

// quoteList writes a command line as Terraform shows it: ["/bin/sh" "-c" "…"].
func quoteList(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// address is the Terraform address of the instance whose Cairn name is
// name (a["x"].web[0], see tfstate.ModuleName) and type typ:
// module.a["x"].null_resource.web[0].
func address(name, typ string) string {
	depth, quoted, last := 0, false, -1
	var cuts []int
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == '[':
			depth++
		case !quoted && c == ']':
			depth--
		case !quoted && depth == 0 && c == '.':
			cuts, last = append(cuts, i), i
		}
	}
	var b strings.Builder
	start := 0
	for _, c := range cuts {
		b.WriteString("module." + name[start:c] + ".")
		start = c + 1
	}
	if typ != "" {
		b.WriteString(typ + ".")
	}
	b.WriteString(name[last+1:])
	return b.String()
}

// lineWriter hands what a command writes to emit line by line.
type lineWriter struct {
	mu      sync.Mutex
	emit    func(string)
	partial []byte
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, b...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		w.emit(strings.TrimSuffix(string(w.partial[:i]), "\r"))
		w.partial = w.partial[i+1:]
	}
}

// flush emits the last line, if it had no newline.
func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.partial) > 0 {
		w.emit(string(w.partial))
		w.partial = nil
	}
}

// log reports a message about a resource, when the provider has where to.
func (p *Provider) log(urn resource.URN, sev deploy.Severity, msg string) {
	if p.diag != nil {
		p.diag(deploy.DiagEvent{URN: urn, Severity: sev, Message: msg})
	}
}
