package deploy

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/snapshot"
)

// fakeProvider is a scripted provider: each method does what its func field
// says, or a sensible default, and every call is recorded.
type fakeProvider struct {
	provider.Unimplemented
	pkg     string
	version string
	// thirdParty makes GetPluginInfo not declare InputsOnly, as a plugin
	// not written for Cairn.
	thirdParty bool

	CheckConfigF  func(provider.CheckRequest) (provider.CheckResponse, error)
	DiffConfigF   func(provider.DiffRequest) (provider.DiffResponse, error)
	ConfigureF    func(provider.ConfigureRequest) error
	CheckF        func(provider.CheckRequest) (provider.CheckResponse, error)
	DiffF         func(provider.DiffRequest) (provider.DiffResponse, error)
	CreateF       func(provider.CreateRequest) (provider.CreateResponse, error)
	ReadF         func(provider.ReadRequest) (provider.ReadResponse, error)
	UpdateF       func(provider.UpdateRequest) (provider.UpdateResponse, error)
	DeleteF       func(provider.DeleteRequest) error
	InvokeF       func(provider.InvokeRequest) (provider.InvokeResponse, error)
	CallF         func(provider.CallRequest) (provider.CallResponse, error)
	ConstructF    func(context.Context, provider.ConstructRequest) (provider.ConstructResponse, error)
	CancelF       func()
	ParameterizeF func(provider.ParameterizeRequest) (provider.ParameterizeResponse, error)

	log *callLog
	ids *int64Counter
}

// callLog records provider calls across instances.
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(format string, args ...any) {
	l.mu.Lock()
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
	l.mu.Unlock()
}

// take returns the calls so far and forgets them.
func (l *callLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.calls
	l.calls = nil
	return c
}

// filter returns the recorded calls that start with prefix, sorted.
func (l *callLog) filter(prefix string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, c := range l.calls {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

type int64Counter struct {
	mu sync.Mutex
	n  int64
}

func (c *int64Counter) next() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return c.n
}

func (p *fakeProvider) Pkg() string { return p.pkg }

func (p *fakeProvider) Parameterize(_ context.Context, req provider.ParameterizeRequest) (provider.ParameterizeResponse, error) {
	if p.ParameterizeF == nil {
		return provider.ParameterizeResponse{}, provider.ErrNotImplemented
	}
	return p.ParameterizeF(req)
}

func (p *fakeProvider) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: p.version, InputsOnly: !p.thirdParty}, nil
}

func (p *fakeProvider) CheckConfig(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	p.log.add("CheckConfig %s", req.URN.Name())
	if p.CheckConfigF != nil {
		return p.CheckConfigF(req)
	}
	return provider.CheckResponse{Inputs: req.News}, nil
}

func (p *fakeProvider) DiffConfig(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	p.log.add("DiffConfig %s", req.URN.Name())
	if p.DiffConfigF != nil {
		return p.DiffConfigF(req)
	}
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

func (p *fakeProvider) Configure(_ context.Context, req provider.ConfigureRequest) (provider.ConfigureResponse, error) {
	p.log.add("Configure %s", req.URN.Name())
	if p.ConfigureF != nil {
		if err := p.ConfigureF(req); err != nil {
			return provider.ConfigureResponse{}, err
		}
	}
	return provider.ConfigureResponse{AcceptSecrets: true, AcceptResources: true, SupportsPreview: true}, nil
}

func (p *fakeProvider) Check(_ context.Context, req provider.CheckRequest) (provider.CheckResponse, error) {
	p.log.add("Check %s", req.URN.Name())
	if p.CheckF != nil {
		return p.CheckF(req)
	}
	return provider.CheckResponse{Inputs: req.News}, nil
}

func (p *fakeProvider) Diff(_ context.Context, req provider.DiffRequest) (provider.DiffResponse, error) {
	p.log.add("Diff %s", req.URN.Name())
	if p.DiffF != nil {
		return p.DiffF(req)
	}
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

func (p *fakeProvider) Create(_ context.Context, req provider.CreateRequest) (provider.CreateResponse, error) {
	if req.Preview {
		p.log.add("PreviewCreate %s", req.URN.Name())
	} else {
		p.log.add("Create %s", req.URN.Name())
	}
	if p.CreateF != nil {
		return p.CreateF(req)
	}
	id := resource.ID(fmt.Sprintf("%s-%d", req.URN.Name(), p.ids.next()))
	return provider.CreateResponse{ID: id, Outputs: req.Inputs}, nil
}

func (p *fakeProvider) Read(_ context.Context, req provider.ReadRequest) (provider.ReadResponse, error) {
	p.log.add("Read %s", req.URN.Name())
	if p.ReadF != nil {
		return p.ReadF(req)
	}
	return provider.ReadResponse{ID: req.ID, Inputs: req.Inputs, Outputs: req.Outputs}, nil
}

func (p *fakeProvider) Update(_ context.Context, req provider.UpdateRequest) (provider.UpdateResponse, error) {
	if req.Preview {
		p.log.add("PreviewUpdate %s", req.URN.Name())
	} else {
		p.log.add("Update %s", req.URN.Name())
	}
	if p.UpdateF != nil {
		return p.UpdateF(req)
	}
	return provider.UpdateResponse{Outputs: req.News}, nil
}

func (p *fakeProvider) Delete(_ context.Context, req provider.DeleteRequest) error {
	p.log.add("Delete %s", req.URN.Name())
	if p.DeleteF != nil {
		return p.DeleteF(req)
	}
	return nil
}

func (p *fakeProvider) Invoke(_ context.Context, req provider.InvokeRequest) (provider.InvokeResponse, error) {
	p.log.add("Invoke %s", req.Token)
	if p.InvokeF != nil {
		return p.InvokeF(req)
	}
	return provider.InvokeResponse{Return: req.Args}, nil
}

func (p *fakeProvider) Call(_ context.Context, req provider.CallRequest) (provider.CallResponse, error) {
	p.log.add("Call %s", req.Token)
	if p.CallF != nil {
		return p.CallF(req)
	}
	return provider.CallResponse{}, provider.ErrNotImplemented
}

func (p *fakeProvider) Construct(ctx context.Context, req provider.ConstructRequest) (provider.ConstructResponse, error) {
	p.log.add("Construct %s", req.Name)
	if p.ConstructF != nil {
		return p.ConstructF(ctx, req)
	}
	return provider.ConstructResponse{}, provider.ErrNotImplemented
}

func (p *fakeProvider) SignalCancellation(context.Context) error {
	p.log.add("SignalCancellation")
	if p.CancelF != nil {
		p.CancelF()
	}
	return nil
}

// harness drives deployments over a snapshot it keeps between operations and
// checks the snapshot's integrity after each.
type harness struct {
	t       *testing.T
	snap    *snapshot.Snapshot
	log     *callLog
	ids     *int64Counter
	config  map[string]resource.Value
	loads   map[string]int // instances made, by package
	mu      sync.Mutex
	events  []Event
	persist *memJournal
	// configure adjusts each new provider instance of a package.
	configure map[string]func(*fakeProvider)
	versions  map[string][]string          // package → available versions (default: "1.0.0")
	mappings  map[string]map[string]string // package → envVarMappings it was last loaded with
	// thirdParty lists the packages whose providers do not declare
	// InputsOnly; identify makes the harness identify providers without
	// loading them (provider.IdentifyHost).
	thirdParty map[string]bool
	identify   bool
}

func newHarness(t *testing.T) *harness {
	return &harness{t: t, log: &callLog{}, ids: &int64Counter{}, loads: map[string]int{},
		configure: map[string]func(*fakeProvider){}, versions: map[string][]string{}, mappings: map[string]map[string]string{},
		thirdParty: map[string]bool{}, persist: &memJournal{}}
}

// provider scripts every instance of a package.
func (h *harness) provider(pkg string, f func(p *fakeProvider)) { h.configure[pkg] = f }

// selectVersion picks the version of pkg a request for version gets.
func (h *harness) selectVersion(pkg, version string) (string, bool) {
	versions := h.versions[pkg]
	if versions == nil {
		versions = []string{"1.0.0"}
	}
	var fs provider.Factories
	for _, v := range versions {
		fs = append(fs, provider.Factory{Pkg: pkg, Version: v})
	}
	f, ok := provider.Select(fs, pkg, version)
	return f.Version, ok
}

// Load implements provider.Host with fake providers.
func (h *harness) Load(_ context.Context, pkg, version string) (provider.Provider, error) {
	v, ok := h.selectVersion(pkg, version)
	if !ok {
		return nil, &provider.NotFoundError{Pkg: pkg, Version: version}
	}
	h.mu.Lock()
	h.loads[pkg]++
	h.mu.Unlock()
	p := &fakeProvider{pkg: pkg, version: v, log: h.log, ids: h.ids, thirdParty: h.thirdParty[pkg]}
	if c := h.configure[pkg]; c != nil {
		c(p)
	}
	return p, nil
}

// Identify implements provider.IdentifyHost when h.identify is set.
func (h *harness) Identify(_ context.Context, pkg, version string) (provider.Identity, bool) {
	v, ok := h.selectVersion(pkg, version)
	if !h.identify || !ok || v == "" {
		return provider.Identity{}, false
	}
	return provider.Identity{Plugin: v, InputsOnly: !h.thirdParty[pkg]}, true
}

// LoadWithEnv implements provider.EnvHost: it records the mappings.
func (h *harness) LoadWithEnv(ctx context.Context, pkg, version string, mappings map[string]string) (provider.Provider, error) {
	h.mu.Lock()
	h.mappings[pkg] = mappings
	h.mu.Unlock()
	return h.Load(ctx, pkg, version)
}

func (h *harness) options(prog func(context.Context, RunInfo) error) Options {
	return Options{
		Project: "proj", Stack: "dev", Config: h.config, Host: h, Parallel: 8,
		Program: ProgramFunc(prog), Journal: h.persist,
		Events: func(e Event) {
			h.mu.Lock()
			h.events = append(h.events, e)
			h.mu.Unlock()
		},
	}
}

// run performs an operation, checks the resulting snapshot, and keeps it
// unless the operation was a preview.
func (h *harness) run(op func(context.Context, Options, *snapshot.Snapshot) (*Result, error), opts Options) (*Result, error) {
	h.t.Helper()
	h.mu.Lock()
	h.events = nil
	h.mu.Unlock()
	h.persist.reset(h.snap)
	res, err := op(context.Background(), opts, h.snap)
	if res != nil {
		if ierr := res.Snapshot.VerifyIntegrity(); ierr != nil {
			h.t.Fatalf("integrity after operation: %v\n%s", ierr, dump(res.Snapshot))
		}
		if !opts.DryRun {
			// What the journal persisted replays to the same snapshot.
			replayed := h.persist.replay()
			if got, want := dump(replayed), dump(res.Snapshot); got != want {
				h.t.Fatalf("replayed journal differs from the snapshot\nreplayed:\n%s\nsnapshot:\n%s", got, want)
			}
			h.snap = res.Snapshot
		}
	}
	return res, err
}

func (h *harness) up(prog func(context.Context, RunInfo) error, mods ...func(*Options)) (*Result, error) {
	h.t.Helper()
	opts := h.options(prog)
	for _, m := range mods {
		m(&opts)
	}
	return h.run(Update, opts)
}

func (h *harness) preview(prog func(context.Context, RunInfo) error, mods ...func(*Options)) (*Result, error) {
	h.t.Helper()
	return h.up(prog, append(mods, func(o *Options) { o.DryRun = true })...)
}

func (h *harness) destroy(mods ...func(*Options)) (*Result, error) {
	h.t.Helper()
	opts := h.options(nil)
	for _, m := range mods {
		m(&opts)
	}
	return h.run(Destroy, opts)
}

func (h *harness) refresh(mods ...func(*Options)) (*Result, error) {
	h.t.Helper()
	opts := h.options(nil)
	for _, m := range mods {
		m(&opts)
	}
	return h.run(Refresh, opts)
}

// mustUp runs an update that must succeed.
func (h *harness) mustUp(prog func(context.Context, RunInfo) error, mods ...func(*Options)) *Result {
	h.t.Helper()
	res, err := h.up(prog, mods...)
	if err != nil {
		h.t.Fatalf("update failed: %v", err)
	}
	return res
}

// diags returns the messages of the diagnostics of the last operation.
func (h *harness) diags(sev Severity) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if d, ok := e.(DiagEvent); ok && d.Severity == sev {
			out = append(out, d.Message)
		}
	}
	return out
}

// steps returns "op name" for each finished step of the last operation.
func (h *harness) steps() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if s, ok := e.(StepEvent); ok && s.Phase == StepDone {
			out = append(out, string(s.Op)+" "+s.URN.Name())
		}
	}
	sort.Strings(out)
	return out
}

// find returns the live resource of the current snapshot with that name.
func (h *harness) find(name string) *resource.State {
	h.t.Helper()
	for _, r := range h.snap.Resources {
		if r.URN.Name() == name && !r.Delete {
			return r
		}
	}
	return nil
}

// memJournal keeps persisted entries in memory, to check that replaying them
// gives the engine's snapshot.
type memJournal struct {
	mu      sync.Mutex
	base    *snapshot.Snapshot
	entries []snapshot.JournalEntry
}

func (j *memJournal) reset(base *snapshot.Snapshot) {
	j.mu.Lock()
	j.base, j.entries = base, nil
	j.mu.Unlock()
}

func (j *memJournal) Append(e snapshot.JournalEntry) error {
	j.mu.Lock()
	j.entries = append(j.entries, e)
	j.mu.Unlock()
	return nil
}

func (j *memJournal) replay() *snapshot.Snapshot {
	j.mu.Lock()
	defer j.mu.Unlock()
	entries := append([]snapshot.JournalEntry(nil), j.entries...)
	sort.Slice(entries, func(a, b int) bool { return entries[a].Sequence < entries[b].Sequence })
	b := snapshot.NewBuilder(j.base, snapshot.KeepPendingCreates)
	for _, e := range entries {
		b.Apply(e)
	}
	return b.Snapshot()
}

// dump renders a snapshot compactly for comparisons and failure messages.
func dump(s *snapshot.Snapshot) string {
	var b strings.Builder
	for _, r := range s.Resources {
		fmt.Fprintf(&b, "%s id=%s delete=%v pr=%v in=%v out=%v deps=%v parent=%s prov=%s\n", r.URN, r.ID, r.Delete,
			r.PendingReplacement, resource.Object(r.Inputs), resource.Object(r.Outputs), r.Dependencies, r.Parent, r.Provider)
	}
	for _, op := range s.PendingOperations {
		fmt.Fprintf(&b, "pending %s %s\n", op.Type, op.Resource.URN)
	}
	fmt.Fprintf(&b, "seeds generation %d key %x\n", s.Seeds.Generation, s.Seeds.Key)
	return b.String()
}

// program helpers

// stack registers the root stack resource and returns its URN.
func stack(ctx context.Context, info RunInfo) (resource.URN, error) {
	resp, err := info.Monitor.RegisterResource(ctx, RegisterRequest{Type: resource.RootStackType, Name: info.Project + "-" + info.Stack})
	if err != nil {
		return "", err
	}
	return resp.URN, nil
}

// res is a registration of a custom resource of package pkgA.
func res(name string, props map[string]any) RegisterRequest {
	return RegisterRequest{Type: "pkgA:index:Thing", Name: name, Custom: true, Properties: resource.MapFromGo(props)}
}

// register registers reqs in order under the stack and returns the responses
// by name.
func register(ctx context.Context, info RunInfo, reqs ...RegisterRequest) (map[string]*RegisterResponse, error) {
	root, err := stack(ctx, info)
	if err != nil {
		return nil, err
	}
	out := map[string]*RegisterResponse{}
	for _, r := range reqs {
		if r.Parent == "" {
			r.Parent = root
		}
		resp, err := info.Monitor.RegisterResource(ctx, r)
		if err != nil {
			return out, err
		}
		out[r.Name] = resp
	}
	return out, nil
}

// program returns a program registering reqs in order.
func program(reqs ...RegisterRequest) func(context.Context, RunInfo) error {
	return func(ctx context.Context, info RunInfo) error {
		_, err := register(ctx, info, reqs...)
		return err
	}
}

func urnOf(name string) resource.URN {
	return resource.NewURN("dev", "proj", "", "pkgA:index:Thing", name)
}

func boolp(b bool) *bool { return &b }

// allowEmpty lets an empty program delete everything.
func allowEmpty(o *Options) { o.AllowEmpty = true }

var errFake = errors.New("scripted failure")
