package eval_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval"
)

// names resolves bare names, like YAML: each root name is a node, and
// count, each and pulumi are builtins.
type names map[string]eval.Node

func (n names) Resolve(from eval.Node, t hcl.Traversal) (eval.Reference, hcl.Diagnostics) {
	root := t.RootName()
	if node, ok := n[root]; ok {
		return eval.Reference{Node: node, Len: 1}, nil
	}
	switch root {
	case "count":
		return eval.Reference{Builtin: eval.BuiltinCount, Len: 1}, nil
	case "each":
		return eval.Reference{Builtin: eval.BuiltinEach, Len: 1}, nil
	case "pulumi":
		return eval.Reference{Builtin: eval.BuiltinPulumi, Len: 1}, nil
	}
	return eval.Reference{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown name " + root, Subject: t.SourceRange().Ptr()}}
}

// scope makes a scope of nodes resolved by name.
func scope(nodes ...eval.Node) *eval.Scope {
	n := names{}
	for _, node := range nodes {
		n[node.Declaration().Name] = node
	}
	return &eval.Scope{Nodes: nodes, Resolver: n, Dir: "."}
}

// expr parses an HCL expression (a template when it is quoted).
func expr(t *testing.T, src string) hcl.Expression {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(src), "test.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return e
}

func decl(name, noun string) eval.Decl {
	return eval.Decl{Name: name, Noun: noun, NameRange: hcl.Range{Filename: "test.hcl", Start: hcl.InitialPos, End: hcl.InitialPos}}
}

// monitor is a scripted deploy.Monitor: resources get their inputs as
// outputs, and every call is recorded.
type monitor struct {
	mu      sync.Mutex
	regs    map[string]deploy.RegisterRequest
	outputs map[resource.URN]resource.Map
	invokes []string
	forgot  []resource.URN
	// hold, if set, runs before a registration returns.
	hold func(req deploy.RegisterRequest)
}

func newMonitor() *monitor {
	return &monitor{regs: map[string]deploy.RegisterRequest{}, outputs: map[resource.URN]resource.Map{}}
}

func (m *monitor) RegisterResource(_ context.Context, req deploy.RegisterRequest) (*deploy.RegisterResponse, error) {
	m.mu.Lock()
	m.regs[req.Name] = req
	m.mu.Unlock()
	if m.hold != nil {
		m.hold(req)
	}
	parentType := ""
	if req.Parent != "" {
		parentType = req.Parent.QualifiedType()
	}
	urn := resource.NewURN("dev", "proj", parentType, req.Type, req.Name)
	id := resource.ID("")
	if req.Custom {
		id = resource.ID(req.Name + "-id")
	}
	return &deploy.RegisterResponse{URN: urn, ID: id, Outputs: req.Properties}, nil
}

func (m *monitor) RegisterResourceOutputs(_ context.Context, urn resource.URN, outs resource.Map) error {
	m.mu.Lock()
	m.outputs[urn] = outs
	m.mu.Unlock()
	return nil
}

func (m *monitor) ReadResource(context.Context, deploy.ReadResourceRequest) (*deploy.ReadResourceResponse, error) {
	return nil, errors.New("not supported")
}

func (m *monitor) Invoke(_ context.Context, req deploy.InvokeRequest) (*deploy.InvokeResponse, error) {
	m.mu.Lock()
	m.invokes = append(m.invokes, fmt.Sprintf("%s %v", req.Token, resource.Object(req.Args)))
	m.mu.Unlock()
	if req.Token == "test:index:fail" {
		return nil, errors.New("no such thing")
	}
	return &deploy.InvokeResponse{Return: resource.Map{"echo": resource.Object(req.Args)}}, nil
}

func (m *monitor) Forget(_ context.Context, urn resource.URN) error {
	m.mu.Lock()
	m.forgot = append(m.forgot, urn)
	m.mu.Unlock()
	return nil
}

func (m *monitor) ForgetComponent(_ context.Context, parent resource.URN, name string) error {
	m.mu.Lock()
	m.forgot = append(m.forgot, resource.URN(string(parent)+"/"+name))
	m.mu.Unlock()
	return nil
}

func (m *monitor) Call(context.Context, deploy.CallRequest) (*deploy.CallResponse, error) {
	return nil, errors.New("not supported")
}

func (m *monitor) stackOutputs() resource.Map {
	return m.outputs[resource.NewURN("dev", "proj", "", resource.RootStackType, "proj-dev")]
}

func run(t *testing.T, prog *eval.Program, m *monitor, cfg map[string]resource.Value) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		done <- prog.Run(context.Background(), deploy.RunInfo{Monitor: m, Project: "proj", Stack: "dev", Config: cfg})
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute): // a hang, not a slow run (10,000 nodes under -race on a loaded machine take over 5 s)
		t.Fatal("the program did not finish: a node waits for something that never comes")
		return nil
	}
}

// TestPerInstanceWaiting checks that a consumer of web[0] waits for that
// instance only: web[1] is held until the consumer has registered, which
// would never happen if the consumer waited for all of web.
func TestPerInstanceWaiting(t *testing.T) {
	web := &eval.Resource{Decl: decl("web", "resource"), Type: "test:index:Thing",
		Properties: expr(t, `{ index = count.index }`), Expansion: eval.Expansion{Count: expr(t, "2")}}
	first := &eval.Resource{Decl: decl("first", "resource"), Type: "test:index:Thing",
		Properties: expr(t, `{ value = web[0].index }`)}
	all := &eval.Output{Decl: decl("all", "output"), Value: expr(t, `[for w in web : w.index]`)}
	m := newMonitor()
	firstDone := make(chan struct{})
	m.hold = func(req deploy.RegisterRequest) {
		switch req.Name {
		case "web[1]":
			<-firstDone
		case "first":
			close(firstDone)
		}
	}
	prog := &eval.Program{Root: scope(web, first, all)}
	if err := run(t, prog, m, nil); err != nil {
		t.Fatal(err)
	}
	if got := m.regs["first"].Properties["value"]; !got.Equal(resource.Number(0)) {
		t.Errorf("first.value = %v, want 0", got)
	}
	if got, want := m.stackOutputs()["all"], resource.Array(resource.Number(0), resource.Number(1)); !got.Equal(want) {
		t.Errorf("all = %v, want %v", got, want)
	}
}

// TestPerInstanceKeyWaiting checks that app[i], which refers to
// web[count.index], waits for web[i] only: web[1] is held until app[0] has
// registered.
func TestPerInstanceKeyWaiting(t *testing.T) {
	web := &eval.Resource{Decl: decl("web", "resource"), Type: "test:index:Thing",
		Properties: expr(t, `{ index = count.index }`), Expansion: eval.Expansion{Count: expr(t, "2")}}
	app := &eval.Resource{Decl: decl("app", "resource"), Type: "test:index:Thing",
		Properties: expr(t, `{ value = web[count.index].index * 10 }`), Expansion: eval.Expansion{Count: expr(t, "2")}}
	m := newMonitor()
	appDone := make(chan struct{})
	m.hold = func(req deploy.RegisterRequest) {
		switch req.Name {
		case "web[1]":
			<-appDone
		case "app[0]":
			close(appDone)
		}
	}
	if err := run(t, &eval.Program{Root: scope(web, app)}, m, nil); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]float64{"app[0]": 0, "app[1]": 10} {
		if got := m.regs[name].Properties["value"]; !got.Equal(resource.Number(want)) {
			t.Errorf("%s.value = %v, want %v", name, got, want)
		}
	}
}

// TestInvokeNode checks invokes declared as nodes (HCL data sources), with
// forEach.
func TestInvokeNode(t *testing.T) {
	lookup := &eval.Invoke{Decl: decl("lookup", "data source"), Token: "test:index:getThing",
		Args: expr(t, `{ name = each.key }`), Expansion: eval.Expansion{ForEach: expr(t, `["a", "b"]`)}}
	out := &eval.Output{Decl: decl("b", "output"), Value: expr(t, `lookup["b"].echo.name`)}
	m := newMonitor()
	if err := run(t, &eval.Program{Root: scope(lookup, out)}, m, nil); err != nil {
		t.Fatal(err)
	}
	sort.Strings(m.invokes)
	if got, want := strings.Join(m.invokes, "; "), `test:index:getThing {"name": "a"}; test:index:getThing {"name": "b"}`; got != want {
		t.Errorf("invokes: got %s, want %s", got, want)
	}
	if got := m.stackOutputs()["b"]; !got.Equal(resource.String("b")) {
		t.Errorf("output b = %v", got)
	}
}

// TestModule checks that a module instance is a component whose body's
// resources are its children, whose inputs are the body's configuration
// and whose value is the body's outputs.
func TestModule(t *testing.T) {
	input := &eval.Config{Decl: decl("prefix", "variable"), Type: cty.String}
	sized := &eval.Config{Decl: decl("size", "variable"), Type: cty.Number, Default: expr(t, "3")}
	inner := &eval.Resource{Decl: decl("bucket", "resource"), Type: "test:index:Thing",
		Properties: expr(t, `{ name = "${prefix}-bucket", length = size }`)}
	innerOut := &eval.Output{Decl: decl("name", "output"), Value: expr(t, "bucket.name")}
	mod := &eval.Module{Decl: decl("site", "module"), Type: "cairn:index:Module",
		Body: scope(input, sized, inner, innerOut), Inputs: expr(t, `{ prefix = "web" }`),
		Expansion: eval.Expansion{Count: expr(t, "2")}}
	out := &eval.Output{Decl: decl("names", "output"), Value: expr(t, `site[*].name`)}
	m := newMonitor()
	if err := run(t, &eval.Program{Root: scope(mod, out)}, m, nil); err != nil {
		t.Fatal(err)
	}
	comp := m.regs["site[1]"]
	if comp.Custom || comp.Type != "cairn:index:Module" {
		t.Errorf("site[1] registered as %+v", comp)
	}
	// Each instance has its own bucket, named after it, as its child.
	child := m.regs["site[1].bucket"]
	if child.Parent.Name() != "site[1]" {
		t.Errorf("bucket's parent is %q", child.Parent)
	}
	if !child.Properties["length"].Equal(resource.Number(3)) {
		t.Errorf("bucket.length = %v, want the default 3", child.Properties["length"])
	}
	want := resource.Array(resource.String("web-bucket"), resource.String("web-bucket"))
	if got := m.stackOutputs()["names"]; !got.Equal(want) {
		t.Errorf("names = %v, want %v", got, want)
	}
}

// TestCheckWarns checks that a failed check is a warning, not an error.
func TestCheckWarns(t *testing.T) {
	c := &eval.Check{Decl: decl("positive", "check"), Assertions: []eval.Assertion{
		{Condition: expr(t, "1 > 2"), Message: expr(t, `"one is not more than two"`)},
		{Condition: expr(t, "2 > 1"), Message: expr(t, `"never said"`)},
	}}
	var warnings []string
	prog := &eval.Program{Root: scope(c), Warn: func(d *hcl.Diagnostic) { warnings = append(warnings, d.Summary+": "+d.Detail) }}
	if err := run(t, prog, newMonitor(), nil); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(warnings, "\n"), "Check positive failed: one is not more than two"; got != want {
		t.Errorf("warnings: got %q, want %q", got, want)
	}
}

// TestCheckScopedRead checks the data sources scoped to checks: a failed
// read is a warning and skips its check's assertions; a read that works
// feeds them, and the run succeeds either way.
func TestCheckScopedRead(t *testing.T) {
	missing := &eval.Check{Decl: decl("missing", "check"), Assertions: []eval.Assertion{
		{Condition: expr(t, `gone.echo.name == ""`), Message: expr(t, `"never said: the read failed"`)}}}
	gone := &eval.Invoke{Decl: decl("gone", "data source"), Token: "test:index:fail", Args: expr(t, `{ name = "gone" }`), Check: missing}
	named := &eval.Check{Decl: decl("named", "check"), Assertions: []eval.Assertion{
		{Condition: expr(t, `thing.echo.name == "other"`), Message: expr(t, `"named ${thing.echo.name}"`)}}}
	thing := &eval.Invoke{Decl: decl("thing", "data source"), Token: "test:index:getThing", Args: expr(t, `{ name = "x" }`), Check: named}
	var warnings []string
	prog := &eval.Program{Root: scope(missing, gone, named, thing), Warn: func(d *hcl.Diagnostic) { warnings = append(warnings, d.Summary+": "+d.Detail) }}
	if err := run(t, prog, newMonitor(), nil); err != nil {
		t.Fatal(err)
	}
	sort.Strings(warnings)
	want := `Cannot call the function of data source "gone": no such thing; Check named failed: named x`
	if got := strings.Join(warnings, "; "); got != want {
		t.Errorf("warnings:\ngot  %s\nwant %s", got, want)
	}
}

// TestEphemeral checks ephemeral values: they configure a provider (as
// a secret, since the state keeps a provider's inputs), pass through
// local values and a module's ephemeral input and output, are left out of
// the module's component, and become null with ephemeralasnull.
func TestEphemeral(t *testing.T) {
	token := &eval.Config{Decl: decl("token", "variable"), Type: cty.String, Default: expr(t, `"abc"`), Ephemeral: true}
	local := &eval.Local{Decl: decl("x", "local value"), Value: expr(t, `"${token}-x"`)}
	prov := &eval.Resource{Decl: decl("p", "provider"), Type: "pulumi:providers:test", Properties: expr(t, `{ key = token }`)}
	input := &eval.Config{Decl: decl("in", "variable"), Type: cty.String, Ephemeral: true}
	upper := &eval.Output{Decl: decl("upper", "output"), Value: expr(t, `upper(in)`), Ephemeral: true}
	kept := &eval.Output{Decl: decl("kept", "output"), Value: expr(t, `"kept"`)}
	mod := &eval.Module{Decl: decl("m", "module"), Type: "cairn:index:Module", Body: scope(input, upper, kept), Inputs: expr(t, `{ in = x }`)}
	thing := &eval.Resource{Decl: decl("thing", "resource"), Type: "test:index:Thing",
		Properties: expr(t, `{ name = coalesce(ephemeralasnull(m.upper), "none") }`)}
	m := newMonitor()
	if err := run(t, &eval.Program{Root: scope(token, local, prov, mod, thing)}, m, nil); err != nil {
		t.Fatal(err)
	}
	if key := m.regs["p"].Properties["key"]; !key.IsSecret() || !key.Unsecret().Equal(resource.String("abc")) {
		t.Errorf("provider key = %v, want the secret abc", key)
	}
	if name := m.regs["thing"].Properties["name"]; !name.Equal(resource.String("none")) {
		t.Errorf("thing's name = %v, want none", name)
	}
	comp := resource.NewURN("dev", "proj", "", "cairn:index:Module", "m")
	if got := m.outputs[comp]; len(got) != 1 || !got["kept"].Equal(resource.String("kept")) {
		t.Errorf("the module's component outputs are %v, want kept only", got)
	}
}

// TestEphemeralRefused checks that ephemeral values cannot reach what is
// kept: a resource's (but write-only) or data source's arguments, a
// count, an output that is not ephemeral, a module's input that is not.
func TestEphemeralRefused(t *testing.T) {
	token := &eval.Config{Decl: decl("token", "variable"), Type: cty.String, Default: expr(t, `"abc"`), Ephemeral: true}
	thing := &eval.Resource{Decl: decl("thing", "resource"), Type: "test:index:Thing", Properties: expr(t, `{ tags = { a = token } }`)}
	out := &eval.Output{Decl: decl("out", "output"), Value: expr(t, `token`)}
	input := &eval.Config{Decl: decl("in", "variable"), Type: cty.String}
	mod := &eval.Module{Decl: decl("m", "module"), Type: "cairn:index:Module", Body: scope(input), Inputs: expr(t, `{ in = token }`)}
	read := &eval.Invoke{Decl: decl("read", "data source"), Token: "test:index:getThing", Args: expr(t, `{ name = token }`)}
	counted := &eval.Resource{Decl: decl("counted", "resource"), Type: "test:index:Thing", Expansion: eval.Expansion{Count: expr(t, `length(token)`)}}
	err := run(t, &eval.Program{Root: scope(token, thing, out, mod, read, counted)}, newMonitor(), nil)
	var de *eval.DiagnosticsError
	if !errors.As(err, &de) {
		t.Fatalf("want errors, got %v", err)
	}
	var got []string
	for _, d := range de.Diags {
		got = append(got, d.Summary+": "+strings.SplitN(d.Detail, ". ", 2)[0])
	}
	sort.Strings(got)
	want := []string{
		`Ephemeral value not allowed for input in: The value of the input "in" of module "m" is ephemeral; declare the variable ephemeral = true (test.hcl:1:1), or pass ephemeralasnull(…).`,
		"Ephemeral value used in non-ephemeral context: name is ephemeral",
		"Ephemeral value used in non-ephemeral context: tags.a is ephemeral",
		"Invalid count: The count is ephemeral, or derived from an ephemeral value, which would show in the instances' keys.",
		"Output does not allow ephemeral value: The value is ephemeral, which is never kept; only a module's output declared ephemeral = true may have one (ephemeralasnull(…) makes it null).",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\ngot  %q\nwant %q", got, want)
	}
}

// TestPoison checks that a failed node fails its dependents silently and
// leaves the others alone.
func TestPoison(t *testing.T) {
	bad := &eval.Local{Decl: decl("bad", "variable"), Value: expr(t, `"a" * 2`)}
	dependent := &eval.Local{Decl: decl("dependent", "variable"), Value: expr(t, `bad + 1`)}
	fine := &eval.Resource{Decl: decl("fine", "resource"), Type: "test:index:Thing"}
	out := &eval.Output{Decl: decl("out", "output"), Value: expr(t, "dependent")}
	m := newMonitor()
	err := run(t, &eval.Program{Root: scope(bad, dependent, fine, out)}, m, nil)
	var de *eval.DiagnosticsError
	if !errors.As(err, &de) || len(de.Diags) != 1 || de.Diags[0].Summary != "Invalid operand" {
		t.Fatalf("want the one root error, got %v", err)
	}
	if _, ok := m.regs["fine"]; !ok {
		t.Error("an independent resource was not registered")
	}
}

// TestConfigValidation checks optional-attribute defaults, NotNull and
// validations, which refer to the value they check.
func TestConfigValidation(t *testing.T) {
	ty, defaults, diags := typeexpr.TypeConstraintWithDefaults(expr(t, `object({ name = string, tier = optional(string, "basic") })`))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	settings := &eval.Config{Decl: decl("settings", "variable"), Key: "settings", Type: ty, Defaults: defaults}
	size := &eval.Config{Decl: decl("size", "variable"), Key: "size", Type: cty.Number, Default: expr(t, "5"), NotNull: true,
		Validations: []eval.Assertion{{Condition: expr(t, "size > 4"), Message: expr(t, `"size must be more than 4"`)}}}
	out := &eval.Output{Decl: decl("out", "output"), Value: expr(t, `"${settings.tier}-${size}"`)}
	prog := &eval.Program{Root: scope(settings, size, out)}
	m := newMonitor()
	cfg := map[string]resource.Value{"proj:settings": resource.String(`{"name": "a"}`), "proj:size": resource.Null}
	if err := run(t, prog, m, cfg); err != nil {
		t.Fatal(err)
	}
	if got := m.stackOutputs()["out"]; !got.Equal(resource.String("basic-5")) {
		t.Errorf("out = %v, want basic-5", got)
	}

	cfg["proj:size"] = resource.String("3")
	prog = &eval.Program{Root: scope(settings, size, out)}
	err := run(t, prog, newMonitor(), cfg)
	var de *eval.DiagnosticsError
	if !errors.As(err, &de) || len(de.Diags) != 1 || de.Diags[0].Detail != "size must be more than 4" {
		t.Fatalf("want the validation's error, got %v", err)
	}
}

// TestMovedAndRemoved checks that moves become aliases named after the
// instance and that removed resources are forgotten by their URN.
func TestMovedAndRemoved(t *testing.T) {
	web := &eval.Resource{Decl: decl("web", "resource"), Type: "test:index:Thing", Expansion: eval.Expansion{Count: expr(t, "2")},
		Options: eval.ResourceOptions{Moved: []eval.Moved{{From: "old"}, {From: "single", Type: "test:index:Old", Key: "1"}}}}
	gone := &eval.Removed{Decl: decl("gone[0]", "removed"), Type: "test:index:Thing"}
	m := newMonitor()
	if err := run(t, &eval.Program{Root: scope(web, gone)}, m, nil); err != nil {
		t.Fatal(err)
	}
	aliases := func(name string) string {
		var out []string
		for _, a := range m.regs[name].Aliases {
			out = append(out, strings.TrimSpace(a.Name+" "+a.Type))
		}
		return strings.Join(out, ", ")
	}
	if got := aliases("web[0]"); got != "old[0]" {
		t.Errorf("web[0] aliases: %s", got)
	}
	if got := aliases("web[1]"); got != "old[1], single test:index:Old" {
		t.Errorf("web[1] aliases: %s", got)
	}
	if got := fmt.Sprint(m.forgot); got != "[urn:pulumi:dev::proj::test:index:Thing::gone[0]]" {
		t.Errorf("forgot %s", got)
	}
}

// TestManyNodesDeclaredBeforeWhatTheyWaitFor runs a chain of more nodes
// than run at once, each declared before the one it refers to.
func TestManyNodesDeclaredBeforeWhatTheyWaitFor(t *testing.T) {
	const n = 10000
	nodes := make([]eval.Node, 0, n)
	for i := n - 1; i >= 0; i-- {
		props := `{ v = 0 }`
		if i > 0 {
			props = fmt.Sprintf(`{ v = r%d.v + 1 }`, i-1)
		}
		nodes = append(nodes, &eval.Resource{Decl: decl(fmt.Sprintf("r%d", i), "resource"), Type: "test:index:Thing",
			Properties: expr(t, props)})
	}
	m := newMonitor()
	if err := run(t, &eval.Program{Root: scope(nodes...)}, m, nil); err != nil {
		t.Fatal(err)
	}
	if got := m.regs[fmt.Sprintf("r%d", n-1)].Properties["v"]; !got.Equal(resource.Number(n - 1)) {
		t.Errorf("the last of the chain has v = %v, want %d", got, n-1)
	}
}
