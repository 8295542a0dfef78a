package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cairn-iac/cairn/engine/tfstate"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// The differential test runs each configuration of testdata/tf under
// OpenTofu and Terraform (those on PATH) and Cairn, and compares them: the outputs after
// an apply (values and sensitivity), the changes planned for the change
// its change.tfvars and the files of its change/ folder make (creates,
// updates, deletes, replacements, imports and forgets by address), and
// what Cairn makes of the state Terraform wrote: imported
// into a new stack, it previews no changes. The providers are the test
// providers of plugins/tfplugin/testdata, built into a filesystem mirror
// both read, and HashiCorp's providers (hashicorpProviders) found on PATH
// (cases that use one that is not are skipped, saying so).

const tfCorpus = "../../testdata/tf"

// tfScript is the scenario of one case; the case's files are in tf/ (for
// Terraform) and cn/ (for Cairn).
var tfScript = template.Must(template.New("").Parse(`# {{.Name}}: {{.Tool}} and Cairn.
env TF={{.Path}}
{{range .Needs}}[!exec:terraform-provider-{{.}}] skip 'SKIPPED: terraform-provider-{{.}} is not on PATH'
{{end}}{{if .Repos}}[!exec:git] skip 'SKIPPED: git is not on PATH'
{{end}}{{range .Repos}}gitrepo repos/{{.}}
{{end}}{{range .UsesRepos}}replace tf/{{.}} REPOS $WORK/repos
replace cn/{{.}} REPOS $WORK/repos
{{end}}cd tf
exec $TF init -input=false -no-color
exec $TF apply -auto-approve -input=false -no-color
exec $TF output -json
cp stdout $WORK/tf-outputs.json
{{if .Plan}}{{range .Overlay}}cp change/{{.Name}} {{.Name}}
{{end}}{{if .Overlay}}exec $TF init -input=false -no-color
{{end}}exec $TF plan -input=false -no-color{{if .Change}} -var-file=change.tfvars{{end}} -out=change.plan
exec $TF show -json change.plan
cp stdout $WORK/tf-plan.json
{{range .Overlay}}{{if .New}}rm {{.Name}}{{else}}cp $WORK/orig/{{.Name}} {{.Name}}{{end}}
{{end}}{{end}}
cd $WORK/cn
exec cairn stack init default
exec cairn up --yes
exec cairn stack output --json --show-secrets
cp stdout $WORK/cn-outputs.json
exec cairn stack output --json
cp stdout $WORK/cn-masked.json
tfcompare outputs $WORK/tf-outputs.json $WORK/cn-outputs.json $WORK/cn-masked.json
{{if .Plan}}{{range .Overlay}}cp change/{{.Name}} {{.Name}}
{{end}}exec cairn preview --json{{if .Change}} -var-file=change.tfvars{{end}}
cp stdout $WORK/cn-plan.json
tfcompare plan $WORK/tf-plan.json $WORK/cn-plan.json
{{end}}
# The state Terraform wrote moves into a new stack, in Terraform's folder.
# Cairn adds lock entries under OpenTofu's registry host, as OpenTofu does,
# which Terraform then refuses: its own lock file is put back before it
# destroys.
cd $WORK/tf
{{if .Lock}}cp .terraform.lock.hcl $WORK/tf.lock.hcl
{{end}}env CAIRN_HOME=$WORK/import-home
exec cairn stack init default
exec cairn stack import --from-terraform terraform.tfstate
exec cairn preview --expect-no-changes
{{if .Lock}}cp $WORK/tf.lock.hcl .terraform.lock.hcl
{{end}}exec $TF destroy -auto-approve -input=false -no-color{{if eq .Tool "tofu"}} -suppress-forget-errors{{end}}
`))

// TestTerraformDifferential runs the cases of testdata/tf under OpenTofu
// and Terraform (those on PATH) and Cairn.
func TestTerraformDifferential(t *testing.T) {
	var tools []string
	for _, name := range []string{"tofu", "terraform"} {
		if p, err := exec.LookPath(name); err == nil {
			tools = append(tools, p)
		}
	}
	if len(tools) == 0 {
		fmt.Fprintln(os.Stderr, "SKIPPED: neither tofu nor terraform is on PATH")
		t.Skip("SKIPPED: neither tofu nor terraform is on PATH")
	}
	mirror := t.TempDir()
	buildMirror(t, mirror)
	scripts := t.TempDir()
	cases, err := os.ReadDir(tfCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, tool := range tools {
			_, err := os.Stat(filepath.Join(tfCorpus, c.Name(), "opentofu-only"))
			if c.IsDir() && (err != nil || filepath.Base(tool) == "tofu") {
				writeCaseScript(t, filepath.Join(tfCorpus, c.Name()), filepath.Join(scripts, c.Name()+"-"+filepath.Base(tool)+".txtar"), tool)
			}
		}
	}
	p := scriptParams(nil)
	p.Dir, p.UpdateScripts = scripts, false
	p.Cmds["tfcompare"] = tfCompareCmd
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		if err := setup(e); err != nil {
			return err
		}
		home := filepath.Join(e.WorkDir, "home")
		if err := os.MkdirAll(filepath.Join(home, ".terraform.d"), 0o755); err != nil {
			return err
		}
		// Cairn finds providers in ~/.terraform.d/plugins; Terraform
		// through its CLI configuration, without the network.
		if err := os.Symlink(mirror, filepath.Join(home, ".terraform.d", "plugins")); err != nil {
			return err
		}
		rc := filepath.Join(e.WorkDir, "tf.rc")
		if err := os.WriteFile(rc, []byte(fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror)), 0o644); err != nil {
			return err
		}
		for k, v := range map[string]string{"HOME": home, "TF_CLI_CONFIG_FILE": rc, "CHECKPOINT_DISABLE": "1", "TF_IN_AUTOMATION": "1"} {
			e.Setenv(k, v)
		}
		return nil
	}
	testscript.Run(t, p)
}

// hashicorpProviders are the versions under which the mirror serves
// HashiCorp's providers found on PATH (terraform-provider-TYPE), whatever
// version they are: versions the corpus's constraints accept.
var hashicorpProviders = map[string]string{"null": "3.2.4", "random": "3.7.2", "local": "2.5.3", "tls": "4.1.0", "time": "0.13.1"}

// buildMirror builds the test providers into a filesystem mirror, under
// both registries' hosts, as cairn/TYPE and as hashicorp/TYPE (which a
// configuration without required_providers implies), and adds
// HashiCorp's providers from PATH.
func buildMirror(t *testing.T, mirror string) {
	platform := runtime.GOOS + "_" + runtime.GOARCH
	put := func(ns, typ, version, exe string) {
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
			dir := filepath.Join(mirror, host, ns, typ, version, platform)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "terraform-provider-"+typ), data, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	bin := t.TempDir()
	for name, typ := range map[string]string{"fwprovider": "cairnfw", "sdkprovider": "cairnsdk"} {
		exe := filepath.Join(bin, typ)
		cmd := exec.Command("go", "build", "-o", exe, ".")
		cmd.Dir = filepath.Join("..", "..", "plugins", "tfplugin", "testdata", name)
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", name, err, out)
		}
		put("cairn", typ, "1.0.0", exe)
		put("hashicorp", typ, "1.0.0", exe) // the provider cairnfw_* types imply without required_providers
	}
	for typ, version := range hashicorpProviders {
		if exe, err := exec.LookPath("terraform-provider-" + typ); err == nil {
			put("hashicorp", typ, version, exe)
		}
	}
}

// overlayFile is a file of a case's change/ folder, which replaces the
// case's file of its name (or is added, when New) for the planned change.
type overlayFile struct {
	Name string
	New  bool
}

// writeCaseScript writes the scenario of the case in dir under tool (tofu
// or terraform, by its path): the script, and the case's files under tf/
// and cn/, the originals of those change/ replaces under orig/. The
// folders of its repos/ become git repositories (tagged v1) in
// $WORK/repos, which REPOS in its files stands for.
func writeCaseScript(t *testing.T, dir, script, tool string) {
	var files []txtar.File
	var repos, usesRepos []string
	var overlay []overlayFile
	uses := ""
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if repo, ok := strings.CutPrefix(rel, "repos/"); ok {
			if name, _, _ := strings.Cut(repo, "/"); !slices.Contains(repos, name) {
				repos = append(repos, name)
			}
			files = append(files, txtar.File{Name: rel, Data: data})
			return nil
		}
		if bytes.Contains(data, []byte("REPOS")) {
			usesRepos = append(usesRepos, rel)
		}
		uses += string(data)
		files = append(files, txtar.File{Name: "tf/" + rel, Data: data}, txtar.File{Name: "cn/" + rel, Data: data})
		if name, ok := strings.CutPrefix(rel, "change/"); ok {
			original, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
			overlay = append(overlay, overlayFile{Name: name, New: err != nil})
			if err == nil {
				files = append(files, txtar.File{Name: "orig/" + name, Data: original})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	_, statErr := os.Stat(filepath.Join(dir, "change.tfvars"))
	var text bytes.Buffer
	var needs []string
	for typ := range hashicorpProviders {
		if strings.Contains(uses, "hashicorp/"+typ+`"`) {
			needs = append(needs, typ)
		}
	}
	sort.Strings(needs)
	err = tfScript.Execute(&text, map[string]any{"Name": filepath.Base(dir), "Tool": filepath.Base(tool), "Path": tool,
		"Change": statErr == nil, "Needs": needs, "Overlay": overlay, "Plan": statErr == nil || len(overlay) > 0,
		"Lock": strings.Contains(uses, "required_providers") || strings.Contains(uses, `provider "cairn`), "Repos": repos, "UsesRepos": usesRepos})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, txtar.Format(&txtar.Archive{Comment: text.Bytes(), Files: files}), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tfCompareCmd compares what Terraform and Cairn did: "tfcompare outputs
// TF CAIRN CAIRN-MASKED" compares `terraform output -json` with `cairn
// stack output --json` (with and without --show-secrets), "tfcompare plan
// TF CAIRN" the resource changes of `terraform show -json PLAN` with the
// steps of `cairn preview --json`.
func tfCompareCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: tfcompare outputs TF CAIRN CAIRN-MASKED | tfcompare plan TF CAIRN")
	}
	read := func(name string) any {
		var v any
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(name)), &v))
		return v
	}
	var diffs []string
	switch {
	case args[0] == "outputs" && len(args) == 4:
		tf, _ := read(args[1]).(map[string]any)
		cn, _ := read(args[2]).(map[string]any)
		masked, _ := read(args[3]).(map[string]any)
		for _, name := range union(tf, cn) {
			o, _ := tf[name].(map[string]any)
			got, ok := cn[name]
			switch {
			case o == nil:
				diffs = append(diffs, fmt.Sprintf("output %s: Cairn has %v, Terraform none", name, got))
			case !ok:
				diffs = append(diffs, fmt.Sprintf("output %s: Terraform has %v, Cairn none", name, o["value"]))
			case !reflect.DeepEqual(o["value"], got):
				diffs = append(diffs, fmt.Sprintf("output %s: Terraform has %s, Cairn %s", name, jsonText(o["value"]), jsonText(got)))
			case (o["sensitive"] == true) != (masked[name] == "[secret]"):
				diffs = append(diffs, fmt.Sprintf("output %s: sensitive in Terraform: %v, secret in Cairn: %v", name, o["sensitive"], masked[name] == "[secret]"))
			}
		}
	case args[0] == "plan" && len(args) == 3:
		tf, cn := terraformChanges(read(args[1])), cairnChanges(read(args[2]))
		for _, addr := range union(tf, cn) {
			if tf[addr] != cn[addr] {
				diffs = append(diffs, fmt.Sprintf("%s: Terraform plans %q, Cairn %q", addr, tf[addr], cn[addr]))
			}
		}
		ts.Logf("planned: %v", tf)
	default:
		ts.Fatalf("usage: tfcompare outputs TF CAIRN CAIRN-MASKED | tfcompare plan TF CAIRN")
	}
	if len(diffs) > 0 {
		ts.Fatalf("Terraform and Cairn differ:\n  %s", strings.Join(diffs, "\n  "))
	}
}

// terraformChanges are the changes of a plan's managed resources by
// address: create, update, delete or replace.
func terraformChanges(plan any) map[string]string {
	out := map[string]string{}
	p, _ := plan.(map[string]any)
	changes, _ := p["resource_changes"].([]any)
	for _, c := range changes {
		rc, _ := c.(map[string]any)
		if rc["mode"] != "managed" {
			continue
		}
		change, _ := rc["change"].(map[string]any)
		actions, _ := change["actions"].([]any)
		var op string
		switch fmt.Sprint(actions) {
		case "[create]":
			op = "create"
		case "[update]":
			op = "update"
		case "[delete]":
			op = "delete"
		case "[delete create]", "[create delete]":
			op = "replace"
		case "[forget]":
			op = "forget"
		case "[no-op]":
			if change["importing"] == nil {
				continue
			}
			op = "import"
		default:
			continue
		}
		out[fmt.Sprint(rc["address"])] = op
	}
	return out
}

// cairnChanges are the changes of a preview's resources (not providers,
// components, the stack, or the resources holding provisioners, which
// Terraform does not plan apart from their resources) by the address
// Terraform gives them.
func cairnChanges(preview any) map[string]string {
	out := map[string]string{}
	p, _ := preview.(map[string]any)
	steps, _ := p["steps"].([]any)
	for _, s := range steps {
		step, _ := s.(map[string]any)
		urn, _ := step["urn"].(string)
		parts := strings.Split(urn, "::")
		if len(parts) != 4 || strings.HasPrefix(parts[2], "pulumi:") || strings.Contains(parts[2], "hcl:module:") && !strings.Contains(parts[2], "$") {
			continue
		}
		types := strings.Split(parts[2], "$")
		if types[len(types)-1] == tfstate.ProvisionersType {
			continue // a resource's provisioners, which Terraform plans as part of it
		}
		op := fmt.Sprint(step["op"])
		old, _ := step["oldState"].(map[string]any)
		switch op {
		case "delete":
			if old["retainOnDelete"] == true {
				op = "forget" // OpenTofu's lifecycle { destroy = false }
			}
		case "create", "update":
		case "replace", "create-replacement", "delete-replaced":
			op = "replace"
		case "discard":
			op = "forget"
		case "import":
		default:
			continue
		}
		out[terraformAddress(types[len(types)-1], parts[3])] = op
	}
	return out
}

// terraformAddress is the address Terraform gives the resource of a type
// token and an instance name: null:index/resource:Resource and a["x"].web[0]
// are module.a["x"].null_resource.web[0].
func terraformAddress(token, name string) string {
	typ := langhcl.TypeName(token)
	parts := splitName(name)
	addr := ""
	for _, m := range parts[:len(parts)-1] {
		addr += "module." + m + "."
	}
	return addr + typ + "." + parts[len(parts)-1]
}

// splitName splits an instance name at the dots outside its keys.
func splitName(name string) []string {
	var out []string
	depth, start := 0, 0
	inQuote := false
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"':
			inQuote = !inQuote
		case !inQuote && c == '[':
			depth++
		case !inQuote && c == ']':
			depth--
		case !inQuote && depth == 0 && c == '.':
			out = append(out, name[start:i])
			start = i + 1
		}
	}
	return append(out, name[start:])
}

func union[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	for k := range a {
		seen[k] = true
	}
	for k := range b {
		seen[k] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
