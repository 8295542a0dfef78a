// Package langtest runs the programs of Cairn's languages in tests: an
// in-process test provider with schemas, corpora of programs whose results
// are golden files, and stacks that keep their state from one update to the
// next.
package langtest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
)

// Update makes Corpus rewrite the expected results instead of comparing
// them.
var Update = flag.Bool("update", false, "rewrite the expected results of the corpus (want.json, want.diags)")

// Load loads the program of the project in dir, with the schemas of Host.
type Load func(dir string) (*eval.Program, hcl.Diagnostics)

// Corpus runs every program of a corpus (a folder of projects) through a
// preview and an update on an empty stack, and compares what reached the
// engine and the stack's outputs with the project's want.json, or the
// diagnostics with want.diags. A case's stack config is in
// Pulumi.test.yaml (secure values are plaintext there).
func Corpus(t *testing.T, corpusDir string, load Load) {
	entries, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(corpusDir, e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			got, diags := runCase(t, dir, load)
			if diags != "" {
				Golden(t, filepath.Join(dir, "want.diags"), diags)
				return
			}
			data, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			Golden(t, filepath.Join(dir, "want.json"), string(data)+"\n")
		})
	}
}

// Golden compares got with the file at path, or rewrites the file (and
// removes the other expected result of its folder) with -update.
func Golden(t *testing.T, path, got string) {
	t.Helper()
	if *Update {
		for _, stale := range []string{"want.json", "want.diags"} {
			os.Remove(filepath.Join(filepath.Dir(path), stale))
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)\ngot:\n%s", err, got)
	}
	if string(want) != got {
		t.Errorf("wrong result for %s\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// result is what a case did.
type result struct {
	Preview   map[string]any   `json:"preview,omitempty"` // when not the same as Outputs
	Outputs   map[string]any   `json:"outputs,omitempty"`
	Resources []map[string]any `json:"resources,omitempty"`
	Invokes   []map[string]any `json:"invokes,omitempty"`
	Forgotten []string         `json:"forgotten,omitempty"`
	Warnings  []string         `json:"warnings,omitempty"`
}

// runCase loads a case and runs it; it returns the diagnostics as text when
// there are errors.
func runCase(t *testing.T, dir string, load Load) (*result, string) {
	var warnings []string
	var mu sync.Mutex
	warn := func(d *hcl.Diagnostic) {
		mu.Lock()
		warnings = append(warnings, DiagLine(d))
		mu.Unlock()
	}
	prog, diags := load(dir)
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning {
			warn(d)
		}
	}
	var text strings.Builder
	cfg := stackConfig(t, dir)
	if prog != nil {
		prog.Warn = warn
		diags = append(diags, prog.Check(context.Background(), prog.Project, cfg)...)
	}
	if diags.HasErrors() {
		writeDiags(&text, "check", diags)
		return nil, text.String()
	}
	res := &result{}
	preview := runProgram(t, prog, cfg, true)
	up := runProgram(t, prog, cfg, false)
	switch {
	case preview.errText == up.errText && up.errText != "":
		fmt.Fprintf(&text, "# preview, up\n%s", up.errText)
	default:
		for _, r := range []*run{preview, up} {
			if r.errText != "" {
				fmt.Fprintf(&text, "# %s\n%s", r.phase, r.errText)
			}
		}
	}
	if text.Len() > 0 {
		return nil, text.String()
	}
	res.Preview, res.Outputs = renderMap(preview.outputs, dir), renderMap(up.outputs, dir)
	if reflect.DeepEqual(res.Preview, res.Outputs) {
		res.Preview = nil // the same: not repeated
	}
	res.Resources, res.Invokes, res.Forgotten = up.requests(dir), up.invokeLog(dir), names(up.forgets)
	sort.Strings(warnings)
	res.Warnings = dedup(warnings)
	return res, ""
}

func dedup(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// DiagLine renders a diagnostic on one line with its range.
func DiagLine(d *hcl.Diagnostic) string {
	at := "-"
	if r := d.Subject; r != nil {
		at = fmt.Sprintf("%s:%d:%d-%d:%d", filepath.ToSlash(r.Filename), r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
	}
	return fmt.Sprintf("%s: %s; %s", at, d.Summary, d.Detail)
}

func writeDiags(b *strings.Builder, phase string, diags hcl.Diagnostics) {
	fmt.Fprintf(b, "# %s\n", phase)
	for _, d := range eval.SortDiagnostics(diags) {
		if d.Severity == hcl.DiagError {
			b.WriteString(DiagLine(d) + "\n")
		}
	}
}

// stackConfig reads Pulumi.test.yaml: plain values are strings, structured
// values objects, and {secure: text} secrets.
func stackConfig(t *testing.T, dir string) map[string]resource.Value {
	data, err := os.ReadFile(filepath.Join(dir, "Pulumi.test.yaml"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Config map[string]any `yaml:"config"`
	}
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	out := map[string]resource.Value{}
	for k, v := range file.Config {
		switch v := v.(type) {
		case map[string]any:
			if s, ok := v["secure"]; ok && len(v) == 1 {
				out[k] = resource.MakeSecret(resource.String(fmt.Sprint(s)))
				continue
			}
			out[k] = resource.FromGo(v)
		case []any:
			out[k] = resource.FromGo(v)
		default:
			out[k] = resource.String(fmt.Sprint(v))
		}
	}
	return out
}

// run records what a program sent to the monitor.
type run struct {
	deploy.Monitor
	phase   string
	mu      sync.Mutex
	regs    []deploy.RegisterRequest
	reads   []deploy.ReadResourceRequest
	invokes []deploy.InvokeRequest
	forgets []resource.URN
	outputs resource.Map
	stack   resource.URN
	errText string
}

func (r *run) RegisterResource(ctx context.Context, req deploy.RegisterRequest) (*deploy.RegisterResponse, error) {
	resp, err := r.Monitor.RegisterResource(ctx, req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.Type == resource.RootStackType {
		if resp != nil {
			r.stack = resp.URN
		}
	} else {
		r.regs = append(r.regs, req)
	}
	return resp, err
}

func (r *run) ReadResource(ctx context.Context, req deploy.ReadResourceRequest) (*deploy.ReadResourceResponse, error) {
	r.mu.Lock()
	r.reads = append(r.reads, req)
	r.mu.Unlock()
	return r.Monitor.ReadResource(ctx, req)
}

func (r *run) Invoke(ctx context.Context, req deploy.InvokeRequest) (*deploy.InvokeResponse, error) {
	r.mu.Lock()
	r.invokes = append(r.invokes, req)
	r.mu.Unlock()
	return r.Monitor.Invoke(ctx, req)
}

func (r *run) Forget(ctx context.Context, urn resource.URN) error {
	r.mu.Lock()
	r.forgets = append(r.forgets, urn)
	r.mu.Unlock()
	return r.Monitor.Forget(ctx, urn)
}

func (r *run) RegisterResourceOutputs(ctx context.Context, urn resource.URN, outs resource.Map) error {
	r.mu.Lock()
	if urn == r.stack {
		r.outputs = outs
	}
	r.mu.Unlock()
	return r.Monitor.RegisterResourceOutputs(ctx, urn, outs)
}

// seedKey makes the values providers generate the same from run to run.
var seedKey = []byte("langtest")

// runProgram runs a preview or an update of a program on an empty stack.
func runProgram(t *testing.T, prog *eval.Program, cfg map[string]resource.Value, preview bool) *run {
	r := &run{phase: "up"}
	if preview {
		r.phase = "preview"
	}
	var events []string
	var mu sync.Mutex
	opts := deploy.Options{
		Project: prog.Project, Stack: "test", Organization: backend.Organization, Config: cfg, Host: Host, DryRun: preview, SeedKey: seedKey,
		Program: deploy.ProgramFunc(func(ctx context.Context, info deploy.RunInfo) error {
			r.Monitor = info.Monitor
			info.Monitor = r
			return prog.Run(ctx, info)
		}),
		Events: func(e deploy.Event) {
			if d, ok := e.(deploy.DiagEvent); ok && d.Severity == deploy.SeverityError {
				mu.Lock()
				events = append(events, fmt.Sprintf("engine: %s: %s", d.URN.Name(), d.Message))
				mu.Unlock()
			}
		},
	}
	_, err := deploy.Update(context.Background(), opts, nil)
	var b strings.Builder
	var de *eval.DiagnosticsError
	if errors.As(err, &de) {
		for _, d := range de.Diags {
			b.WriteString(DiagLine(d) + "\n")
		}
	}
	sort.Strings(events)
	for _, e := range events {
		b.WriteString(e + "\n")
	}
	if err != nil && b.Len() == 0 {
		b.WriteString("error: " + err.Error() + "\n")
	}
	r.errText = b.String()
	return r
}

// requests renders the registrations (and reads) of an update, by name.
func (r *run) requests(dir string) []map[string]any {
	var out []map[string]any
	for _, req := range r.regs {
		m := map[string]any{"type": req.Type, "name": req.Name}
		if !req.Custom {
			m["component"] = true
		}
		if req.Parent != "" && req.Parent != r.stack {
			m["parent"] = req.Parent.Name()
		}
		if len(req.Properties) > 0 {
			m["properties"] = renderMap(req.Properties, dir)
		}
		setNames(m, "dependencies", req.Dependencies)
		if len(req.PropertyDependencies) > 0 {
			pd := map[string]any{}
			for k, us := range req.PropertyDependencies {
				pd[k] = names(us)
			}
			m["propertyDependencies"] = pd
		}
		if req.Provider != "" {
			ref, _ := resource.ParseProviderRef(req.Provider)
			m["provider"] = ref.URN.Name()
		}
		if len(req.Providers) > 0 {
			ps := map[string]any{}
			for pkg, ref := range req.Providers {
				pr, _ := resource.ParseProviderRef(ref)
				ps[pkg] = pr.URN.Name()
			}
			m["providers"] = ps
		}
		options(m, req)
		out = append(out, m)
	}
	for _, req := range r.reads {
		m := map[string]any{"type": req.Type, "name": req.Name, "read": string(req.ID)}
		if len(req.Properties) > 0 {
			m["properties"] = renderMap(req.Properties, dir)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]["name"]) < fmt.Sprint(out[j]["name"]) })
	return out
}

// options renders the options of a registration that are set.
func options(m map[string]any, req deploy.RegisterRequest) {
	set := func(k string, v any, ok bool) {
		if ok {
			m[k] = v
		}
	}
	set("protect", deref(req.Protect), req.Protect != nil)
	set("deleteBeforeReplace", deref(req.DeleteBeforeReplace), req.DeleteBeforeReplace != nil)
	set("retainOnDelete", deref(req.RetainOnDelete), req.RetainOnDelete != nil)
	set("ignoreChanges", req.IgnoreChanges, len(req.IgnoreChanges) > 0)
	set("replaceOnChanges", req.ReplaceOnChanges, len(req.ReplaceOnChanges) > 0)
	set("additionalSecretOutputs", req.AdditionalSecretOutputs, len(req.AdditionalSecretOutputs) > 0)
	set("hideDiffs", req.HideDiffs, len(req.HideDiffs) > 0)
	set("version", req.Version, req.Version != "")
	set("pluginDownloadURL", req.PluginDownloadURL, req.PluginDownloadURL != "")
	set("import", string(req.ImportID), req.ImportID != "")
	set("deletedWith", req.DeletedWith.Name(), req.DeletedWith != "")
	setNames(m, "replaceWith", req.ReplaceWith)
	set("replacementTrigger", render(req.ReplacementTrigger, ""), !req.ReplacementTrigger.IsNull())
	if req.CustomTimeouts != nil {
		m["customTimeouts"] = *req.CustomTimeouts
	}
	if len(req.Aliases) > 0 {
		var as []any
		for _, a := range req.Aliases {
			alias := nonEmpty("urn", string(a.URN), "name", a.Name, "type", a.Type, "stack", a.Stack, "project", a.Project, "parent", a.Parent.Name())
			if a.NoParent {
				alias["noParent"] = true
			}
			as = append(as, alias)
		}
		m["aliases"] = as
	}
	set("sourcePosition", req.SourcePosition, req.SourcePosition != "")
}

func deref(b *bool) bool { return b != nil && *b }

func setNames(m map[string]any, k string, us []resource.URN) {
	if len(us) > 0 {
		m[k] = names(us)
	}
}

func names(us []resource.URN) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.Name()
	}
	sort.Strings(out)
	return out
}

// invokeLog renders the invokes of an update.
func (r *run) invokeLog(dir string) []map[string]any {
	var out []map[string]any
	for _, req := range r.invokes {
		m := map[string]any{"token": req.Token, "args": renderMap(req.Args, dir)}
		if req.Provider != "" {
			ref, _ := resource.ParseProviderRef(req.Provider)
			m["provider"] = ref.URN.Name()
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out
}

func renderMap(m resource.Map, dir string) map[string]any {
	if m == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range m {
		out[k] = render(v, dir)
	}
	return out
}

// render turns an engine value into JSON data: secrets as {"@secret": v},
// unknowns as "@unknown", assets and archives by what they hold, resource
// references by name.
func render(v resource.Value, dir string) any {
	switch v.Kind() {
	case resource.ArrayKind:
		out := []any{}
		for _, e := range v.ArrayValue() {
			out = append(out, render(e, dir))
		}
		return out
	case resource.ObjectKind:
		return renderMap(v.ObjectValue(), dir)
	case resource.SecretKind:
		return map[string]any{"@secret": render(v.SecretElement(), dir)}
	case resource.UnknownKind:
		return "@unknown"
	case resource.ResourceRefKind:
		return map[string]any{"@ref": v.RefValue().URN.Name()}
	case resource.AssetKind:
		a := v.AssetValue()
		return map[string]any{"@asset": nonEmpty("text", a.Text, "path", relPath(a.Path, dir), "uri", a.URI)}
	case resource.ArchiveKind:
		a := v.ArchiveValue()
		out := nonEmpty("path", relPath(a.Path, dir), "uri", a.URI)
		if len(a.Assets) > 0 {
			members := map[string]any{}
			for k, m := range a.Assets {
				members[k] = render(resource.FromGo(m), dir)
			}
			out["assets"] = members
		}
		return map[string]any{"@archive": out}
	}
	return v.ToGo()
}

// nonEmpty makes a map of the non-empty strings among key, value pairs.
func nonEmpty(kv ...string) map[string]any {
	out := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] != "" {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

func relPath(p, dir string) string {
	if p == "" || !filepath.IsAbs(p) {
		return filepath.ToSlash(p)
	}
	abs, _ := filepath.Abs(dir)
	if rel, err := filepath.Rel(abs, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return p
}
