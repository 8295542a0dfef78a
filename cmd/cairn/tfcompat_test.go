package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
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
// Terraform) and cn/ (for Cairn). Each stage of the case is planned by
// both and compared; all but the last are then applied and their outputs
// compared. A refused stage must fail under both, and ends the case when
// it is init or the first apply.
var tfScript = template.Must(template.New("").Parse(`# {{.Name}}: {{.Tool}} and Cairn.
env TF={{.Path}}
{{range .Needs}}[!exec:terraform-provider-{{.}}] skip 'SKIPPED: terraform-provider-{{.}} is not on PATH'
{{end}}{{if .Repos}}[!exec:git] skip 'SKIPPED: git is not on PATH'
{{end}}{{range .Repos}}gitrepo repos/{{.}}
{{end}}{{range .UsesRepos}}replace tf/{{.}} REPOS $WORK/repos
replace cn/{{.}} REPOS $WORK/repos
{{end}}cd tf
{{if eq .Refused "init"}}! exec $TF init -input=false -no-color
{{range .TFErrors}}tfcompare refused {{.}}
{{end}}{{else}}exec $TF init -input=false -no-color
{{end}}{{if eq .Refused "apply"}}! exec $TF apply -auto-approve -input=false -no-color
{{range .TFErrors}}tfcompare refused {{.}}
{{end}}{{else if eq .Refused "init"}}{{else}}exec $TF apply -auto-approve -input=false -no-color
exec $TF output -json
cp stdout $WORK/tf-outputs.json
{{range .Stages}}{{range .Files}}cp {{.Stage}}/{{.Name}} {{.Name}}
{{end}}{{if .Files}}exec $TF init -input=false -no-color
{{end}}{{if .Refused}}! exec $TF plan -input=false -no-color{{.Vars}}
{{range $.TFErrors}}tfcompare refused {{.}}
{{end}}{{else}}exec $TF plan -input=false -no-color{{.Vars}} -out=stage{{.N}}.plan
exec $TF show -json stage{{.N}}.plan
cp stdout $WORK/tf-plan{{.N}}.json
{{if not .Last}}exec $TF apply -input=false -no-color stage{{.N}}.plan
exec $TF output -json
cp stdout $WORK/tf-outputs{{.N}}.json
{{end}}{{end}}{{end}}{{range .Restore}}{{.}}
{{end}}{{end}}
cd $WORK/cn
exec cairn stack init default
{{if eq .Refused "apply" "init"}}! exec cairn up --yes
{{range .CNErrors}}tfcompare refused {{.}}
{{end}}stop 'refused by both'
{{end}}exec cairn up --yes
exec cairn stack output --json --show-secrets
cp stdout $WORK/cn-outputs.json
exec cairn stack output --json
cp stdout $WORK/cn-masked.json
tfcompare outputs $WORK/tf-outputs.json $WORK/cn-outputs.json $WORK/cn-masked.json
{{range .Stages}}{{range .Files}}cp {{.Stage}}/{{.Name}} {{.Name}}
{{end}}{{if .Refused}}! exec cairn preview{{.Vars}}
{{range $.CNErrors}}tfcompare refused {{.}}
{{end}}{{else}}exec cairn preview --json{{.Vars}}
cp stdout $WORK/cn-plan{{.N}}.json
tfcompare plan $WORK/tf-plan{{.N}}.json $WORK/cn-plan{{.N}}.json
{{if not .Last}}exec cairn up --yes{{.Vars}}
exec cairn stack output --json --show-secrets
cp stdout $WORK/cn-outputs{{.N}}.json
exec cairn stack output --json
cp stdout $WORK/cn-masked{{.N}}.json
tfcompare outputs $WORK/tf-outputs{{.N}}.json $WORK/cn-outputs{{.N}}.json $WORK/cn-masked{{.N}}.json
{{end}}{{end}}{{end}}
# The state Terraform wrote moves into a new stack, in Terraform's folder.
# Cairn adds lock entries under OpenTofu's registry host, as OpenTofu does,
# which Terraform then refuses: its own lock file is put back before it
# destroys.
cd $WORK/tf
{{if .Lock}}cp .terraform.lock.hcl $WORK/tf.lock.hcl
{{end}}env CAIRN_HOME=$WORK/import-home
exec cairn stack init default
exec cairn stack import --from-terraform terraform.tfstate
exec cairn preview --expect-no-changes{{.AppliedVars}}
{{if .Lock}}cp $WORK/tf.lock.hcl .terraform.lock.hcl
{{end}}{{if .Destroy}}exec $TF destroy -auto-approve -input=false -no-color{{.AppliedVars}}{{if eq .Tool "tofu"}} -suppress-forget-errors{{end}}
{{end}}`))

// requireTofuEnv, set to 1 (as CI does), makes TestTerraformDifferential
// fail rather than skip when tofu is not on PATH.
const requireTofuEnv = "CAIRN_REQUIRE_TOFU"

// TestTerraformDifferential runs the cases of testdata/tf under OpenTofu
// and Terraform (those on PATH) and Cairn.
func TestTerraformDifferential(t *testing.T) {
	var tools []string
	for _, name := range []string{"tofu", "terraform"} {
		if p, err := exec.LookPath(name); err == nil {
			tools = append(tools, p)
		} else if name == "tofu" && os.Getenv(requireTofuEnv) == "1" {
			t.Fatalf("tofu is not on PATH, and %s=1 requires it: build it with .ci/tofu and put its folder on PATH", requireTofuEnv)
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
	useMirror(&p, mirror)
	testscript.Run(t, p)
}

// useMirror has the scenarios of p find the providers of a filesystem
// mirror, without the network: Cairn in ~/.terraform.d/plugins, Terraform
// through its CLI configuration.
func useMirror(p *testscript.Params, mirror string) {
	setup := p.Setup
	p.Setup = func(e *testscript.Env) error {
		if err := setup(e); err != nil {
			return err
		}
		home := filepath.Join(e.WorkDir, "home")
		if err := os.MkdirAll(filepath.Join(home, ".terraform.d"), 0o755); err != nil {
			return err
		}
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

// stage is a change of a case, planned by Terraform and Cairn: stage 1
// is the case's change/ folder and change.tfvars, stage N its changeN/
// and changeN.tfvars. Its files replace (or add to) the configuration's
// as left by the stages before it, which were applied.
type stage struct {
	N       int
	Files   []overlayFile
	Vars    string // the -var-file flag, with a space before it
	Last    bool   // planned only, not applied
	Refused bool   // its plan must fail under both
}

// overlayFile is a file of a stage's folder, which replaces the
// configuration's file of its name, or is added.
type overlayFile struct {
	Stage, Name string
}

// stageFile matches the path of a stage's file or variables in a case:
// its number (empty for 1) and its name.
var stageFile = regexp.MustCompile(`^change([2-9]?)(?:/(.+)|\.tfvars)$`)

// writeCaseScript writes the scenario of the case in dir under tool (tofu
// or terraform, by its path): the script, and the case's files under tf/
// and cn/, the originals of those a stage replaces under orig/. The
// folders of its repos/ become git repositories (tagged v1) in
// $WORK/repos, which REPOS in its files stands for. A file refused names
// the stage both must refuse, init (Terraform's; Cairn's up), apply (the
// first) or plan (the last stage),
// and may follow it with lines "TOOL: REGEXP" (tofu, terraform or cairn)
// the tool's error must match.
func writeCaseScript(t *testing.T, dir, script, tool string) {
	var files []txtar.File
	var repos, usesRepos []string
	stages := map[int]*stage{}
	originals := map[string]bool{}
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
		if m := stageFile.FindStringSubmatch(rel); m != nil {
			n, _ := strconv.Atoi(m[1])
			n = max(n, 1)
			if stages[n] == nil {
				stages[n] = &stage{N: n}
			}
			if m[2] == "" {
				stages[n].Vars = " -var-file=" + rel
				return nil
			}
			stages[n].Files = append(stages[n].Files, overlayFile{Stage: strings.TrimSuffix(rel, "/"+m[2]), Name: m[2]})
			if original, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m[2]))); err == nil && !originals[m[2]] {
				originals[m[2]] = true
				files = append(files, txtar.File{Name: "orig/" + m[2], Data: original})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var ordered []*stage
	for n := 1; n <= len(stages); n++ {
		if stages[n] == nil {
			t.Fatalf("%s: has %d stages but no change%d/ or change%[3]d.tfvars", dir, len(stages), n)
		}
		ordered = append(ordered, stages[n])
	}
	refused, tfErrors, cnErrors := caseRefusal(t, dir, filepath.Base(tool))
	if refused == "plan" {
		if len(ordered) == 0 {
			t.Fatalf("%s: refused names plan, but the case has no change to plan", dir)
		}
		ordered[len(ordered)-1].Refused = true
	}
	// After the last stage, its files are put back as the stage before
	// left them, for the state Terraform wrote.
	var restore []string
	appliedVars := ""
	if len(ordered) > 0 {
		ordered[len(ordered)-1].Last = true
		applied := ordered[:len(ordered)-1]
		if len(applied) > 0 {
			appliedVars = applied[len(applied)-1].Vars
		}
	next:
		for _, f := range ordered[len(ordered)-1].Files {
			for i := len(applied) - 1; i >= 0; i-- {
				for _, g := range applied[i].Files {
					if g.Name == f.Name {
						restore = append(restore, "cp "+g.Stage+"/"+f.Name+" "+f.Name)
						continue next
					}
				}
			}
			if originals[f.Name] {
				restore = append(restore, "cp $WORK/orig/"+f.Name+" "+f.Name)
			} else {
				restore = append(restore, "rm "+f.Name)
			}
		}
	}
	var text bytes.Buffer
	var needs []string
	for typ := range hashicorpProviders {
		if strings.Contains(uses, "hashicorp/"+typ+`"`) {
			needs = append(needs, typ)
		}
	}
	sort.Strings(needs)
	err = tfScript.Execute(&text, map[string]any{"Name": filepath.Base(dir), "Tool": filepath.Base(tool), "Path": tool,
		"Needs": needs, "Stages": ordered, "Restore": restore, "AppliedVars": appliedVars,
		"Refused": refused, "TFErrors": tfErrors, "CNErrors": cnErrors,
		// A configuration with prevent_destroy cannot be destroyed.
		"Destroy": !strings.Contains(uses, "prevent_destroy"),
		"Lock":    strings.Contains(uses, "required_providers") || strings.Contains(uses, `provider "cairn`), "Repos": repos, "UsesRepos": usesRepos})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, txtar.Format(&txtar.Archive{Comment: text.Bytes(), Files: files}), 0o644); err != nil {
		t.Fatal(err)
	}
}

// caseRefusal reads the case's refused file, if any: the stage refused
// (init, apply or plan), and the patterns, quoted for a script, that the
// errors of tool and of Cairn must match.
func caseRefusal(t *testing.T, dir, tool string) (stage string, toolErrors, cairnErrors []string) {
	data, err := os.ReadFile(filepath.Join(dir, "refused"))
	if err != nil {
		return "", nil, nil
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	stage = strings.TrimSpace(lines[0])
	if stage != "init" && stage != "apply" && stage != "plan" {
		t.Fatalf("%s/refused: the first line is %q, not the stage refused (init, apply or plan)", dir, stage)
	}
	for _, line := range lines[1:] {
		who, pattern, ok := strings.Cut(line, ":")
		if !ok {
			continue // a comment
		}
		quoted := "'" + strings.ReplaceAll(strings.TrimSpace(pattern), "'", "''") + "'"
		switch strings.TrimSpace(who) {
		case tool:
			toolErrors = append(toolErrors, quoted)
		case "cairn":
			cairnErrors = append(cairnErrors, quoted)
		}
	}
	return stage, toolErrors, cairnErrors
}

// tfCompareCmd compares what Terraform and Cairn did: "tfcompare outputs
// TF CAIRN CAIRN-MASKED" compares `terraform output -json` with `cairn
// stack output --json` (with and without --show-secrets), "tfcompare plan
// TF CAIRN" the resource changes of `terraform show -json PLAN` with the
// steps of `cairn preview --json`; "tfcompare refused REGEXP" checks that
// what the refused command printed (either stream) matches.
func tfCompareCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: tfcompare outputs TF CAIRN CAIRN-MASKED | tfcompare plan TF CAIRN | tfcompare refused REGEXP")
	}
	read := func(name string) any {
		var v any
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(name)), &v))
		return v
	}
	var diffs []string
	switch {
	case args[0] == "refused" && len(args) == 2:
		re, err := regexp.Compile(args[1])
		ts.Check(err)
		if printed := ts.ReadFile("stdout") + ts.ReadFile("stderr"); !re.MatchString(printed) {
			ts.Fatalf("the refusal does not match %s", args[1])
		}
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
		ts.Fatalf("usage: tfcompare outputs TF CAIRN CAIRN-MASKED | tfcompare plan TF CAIRN | tfcompare refused REGEXP")
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
		if strings.HasPrefix(types[len(types)-1], "hcl:module:") {
			continue // a module's component, nested in another's too
		}
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

// TestTerraformCorpusTable checks that docs/terraform.md's table of the
// differential test's cases names each folder of testdata/tf once, and
// only those, and says which tools run it as the folder does.
func TestTerraformCorpusTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/terraform.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| case | what it compares | tools |\n| --- | --- | --- |\n")
	if !ok {
		t.Fatal("docs/terraform.md has no table of the differential test's cases (| case | what it compares | tools |)")
	}
	rows := map[string]string{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 {
			break
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		if _, dup := rows[name]; dup {
			t.Errorf("docs/terraform.md names the case %s twice", name)
		}
		rows[name] = strings.TrimSpace(cells[3])
	}
	cases, err := os.ReadDir(tfCorpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		tools, ok := rows[c.Name()]
		delete(rows, c.Name())
		_, err := os.Stat(filepath.Join(tfCorpus, c.Name(), "opentofu-only"))
		switch {
		case !ok:
			t.Errorf("testdata/tf/%s is not in docs/terraform.md's table of cases: add a row for it", c.Name())
		case (err == nil) != (tools == "OpenTofu"):
			t.Errorf("docs/terraform.md says %s runs under %q, but the folder %s an opentofu-only file", c.Name(), tools, map[bool]string{true: "has", false: "has no"}[err == nil])
		}
	}
	for name := range rows {
		t.Errorf("docs/terraform.md's table of cases names %s, which is not a folder of testdata/tf", name)
	}
}
