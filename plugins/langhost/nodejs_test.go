package langhost_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/builtin"
	"github.com/cairn-iac/cairn/plugins/host"
	"github.com/cairn-iac/cairn/plugins/langhost"
)

// nodeProgram is a JavaScript program on the Pulumi Node.js SDK: a
// component holding a dynamic resource (whose provider keeps one file per
// resource in $CAIRN_TEST_CLOUD), a stack reference, a secret and stack
// outputs. Changing the "kind" configuration replaces the resource.
const nodeProgram = `
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");

const files = {
	async create(inputs) {
		if (inputs.name === "refused") throw new Error("the cloud refused " + inputs.kind);
		const id = inputs.kind + "-" + Date.now();
		fs.writeFileSync(path.join(process.env.CAIRN_TEST_CLOUD, id), inputs.name);
		return { id, outs: { name: inputs.name, kind: inputs.kind, length: inputs.name.length } };
	},
	async diff(id, olds, news) {
		return { changes: olds.name !== news.name || olds.kind !== news.kind, replaces: olds.kind !== news.kind ? ["kind"] : [] };
	},
	async update(id, olds, news) {
		fs.writeFileSync(path.join(process.env.CAIRN_TEST_CLOUD, id), news.name);
		return { outs: { name: news.name, kind: news.kind, length: news.name.length } };
	},
	async delete(id) {
		fs.unlinkSync(path.join(process.env.CAIRN_TEST_CLOUD, id));
	},
};

class File extends pulumi.dynamic.Resource {
	constructor(name, args, opts) { super(files, name, { length: undefined, ...args }, opts); }
}

class Group extends pulumi.ComponentResource {
	constructor(name, args, opts) {
		super("test:index:Group", name, {}, opts);
		this.file = new File(name + "-file", args, { parent: this });
		this.registerOutputs({ length: this.file.length });
	}
}

const config = new pulumi.Config();
const group = new Group("group", { name: config.require("name"), kind: config.require("kind") });
const other = new pulumi.StackReference("acme/other/prod");

exports.length = group.file.length;
exports.endpoint = other.getOutput("endpoint");
exports.token = other.getOutput("token");
exports.password = pulumi.secret("hunter2");
`

// TestNodeJSProgramWithDynamicProvider runs a JavaScript program on the
// real Pulumi Node.js SDK through Cairn's own language host and, where it
// is on PATH, Pulumi's pulumi-language-nodejs.
func TestNodeJSProgramWithDynamicProvider(t *testing.T) {
	t.Run("cairn", func(t *testing.T) { testNodeJSProgram(t, "cairn") })
	t.Run("pulumi", func(t *testing.T) {
		if _, err := exec.LookPath("pulumi-language-nodejs"); err != nil {
			msg := "SKIPPED " + t.Name() + ": pulumi-language-nodejs is not on PATH, so Cairn is not checked against Pulumi's Node.js host"
			fmt.Fprintln(os.Stderr, msg)
			t.Skip(msg)
		}
		testNodeJSProgram(t, "pulumi")
	})
}

func testNodeJSProgram(t *testing.T, langHost string) {
	t.Setenv(langhost.HostEnv, langHost)
	e := newEnv(t)
	dir := e.dir
	plugintest.NodeModules(t, dir)
	writeFile(t, filepath.Join(dir, "package.json"), `{"name": "proj", "main": "index.js", "dependencies": {"@pulumi/pulumi": "^3.0.0"}}`)
	writeFile(t, filepath.Join(dir, "index.js"), nodeProgram)
	t.Setenv("CAIRN_TEST_CLOUD", e.cloud)

	// pulumi-resource-pulumi-nodejs, the dynamic provider, ships with the
	// SDK's npm package; Pulumi finds it beside its CLI, Cairn there.
	stacks := builtin.StackReaderFunc(func(_ context.Context, name string) (resource.Map, error) {
		if name != "acme/other/prod" {
			return nil, fmt.Errorf("%w: %s", builtin.ErrStackNotFound, name)
		}
		return resource.Map{"endpoint": resource.String("https://prod.example"), "token": resource.MakeSecret(resource.String("t0k"))}, nil
	})
	e.resolver = host.NewResolver(host.ResolverOptions{
		Options:  host.Options{RootDirectory: dir, ProgramDirectory: dir},
		Builtins: provider.Factories{builtin.Factory(builtin.Options{Stacks: stacks})},
		Dirs:     locate.Dirs{Path: langhost.ProviderDirs("nodejs", dir)},
		Diag:     e.diag,
	})
	t.Cleanup(func() { _ = e.resolver.Close() })
	prog := &langhost.Program{Runtime: "nodejs", RootDirectory: dir, ProgramDirectory: dir, Dirs: locate.DefaultDirs(),
		Host: e.resolver, Diag: e.diag}
	config := func(name, kind string) map[string]resource.Value {
		return map[string]resource.Value{"proj:name": resource.String(name), "proj:kind": resource.String(kind)}
	}
	up := func(step, name, kind string) *deploy.Result {
		t.Helper()
		start := time.Now()
		res, err := e.update(prog, config(name, kind), false)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		t.Logf("%s: %v in %s", step, res.Changes, time.Since(start).Round(time.Millisecond))
		return res
	}
	file := func() *resource.State {
		for _, r := range e.snap.Resources {
			if r.URN.Name() == "group-file" {
				return r
			}
		}
		t.Fatal("the dynamic resource is not in the state")
		return nil
	}
	cloud := func() []string {
		entries, err := os.ReadDir(e.cloud)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range entries {
			data, _ := os.ReadFile(filepath.Join(e.cloud, f.Name()))
			out = append(out, strings.SplitN(f.Name(), "-", 2)[0]+"="+string(data))
		}
		return out
	}

	up("create", "hello", "a")
	f := file()
	if f.Type != "pulumi-nodejs:dynamic:Resource" || f.Parent.Type() != "test:index:Group" {
		t.Errorf("the dynamic resource is a %s under %s", f.Type, f.Parent)
	}
	if code := f.Inputs["__provider"]; !code.IsString() || !strings.Contains(code.StringValue(), "writeFileSync") {
		t.Errorf("the serialised provider is not in the inputs: %v", code)
	}
	if got := fmt.Sprint(cloud()); got != "[a=hello]" {
		t.Errorf("cloud after create = %s", got)
	}
	outputs := e.snap.Resources[0].Outputs
	if !outputs["length"].Equal(resource.Number(5)) || !outputs["endpoint"].Equal(resource.String("https://prod.example")) {
		t.Errorf("stack outputs = %v", outputs)
	}
	if !outputs["password"].IsSecret() || !outputs["token"].IsSecret() {
		t.Errorf("the secret outputs are not secrets: %v, %v", outputs["password"], outputs["token"])
	}
	id := f.ID

	if res := up("update", "world", "a"); res.Changes[deploy.OpUpdate] != 1 || file().ID != id {
		t.Errorf("the update changed %v, the ID from %s to %s", res.Changes, id, file().ID)
	}
	if got := fmt.Sprint(cloud()); got != "[a=world]" {
		t.Errorf("cloud after update = %s", got)
	}

	if res := up("replace", "world", "b"); res.Changes[deploy.OpReplace] != 1 || file().ID == id {
		t.Errorf("the replacement changed %v, the ID from %s to %s", res.Changes, id, file().ID)
	}
	if got := fmt.Sprint(cloud()); got != "[b=world]" {
		t.Errorf("cloud after the replacement = %s", got)
	}

	if res := up("no change", "world", "b"); res.HasChanges() {
		t.Errorf("an unchanged program changed %v", res.Changes)
	}

	// A failing step fails the run with the provider's error, which the
	// engine reports (the SDK is told the deployment is stopping).
	start := time.Now()
	_, err := e.update(prog, config("refused", "c"), false)
	t.Logf("failing create: reported in %s", time.Since(start).Round(time.Millisecond))
	if err == nil || !strings.Contains(err.Error(), "the cloud refused c") || !strings.Contains(err.Error(), "group-file") {
		t.Errorf("a failing create: %v, want the provider's error naming the resource", err)
	}
	if got := fmt.Sprint(cloud()); got != "[b=world]" {
		t.Errorf("cloud after the failed replacement = %s", got)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := deploy.Destroy(ctx, deploy.Options{Project: project, Stack: stack, Host: e.resolver}, e.snap)
	if err != nil {
		t.Fatalf("destroy: %v", err)
	}
	if len(res.Snapshot.Resources) != 0 || len(cloud()) != 0 {
		t.Errorf("after destroy: %d resources, cloud %v", len(res.Snapshot.Resources), cloud())
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
