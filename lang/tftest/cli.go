package tftest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/plugins/tfplugin"
)

// stackName is the name of every throwaway stack.
const stackName = "tftest"

// CLI runs the cairn command line: each test file gets a temporary
// backend, CAIRN_HOME and passphrase of its own, so the user's stacks are
// never touched; plugins and schemas come from Home, the user's.
type CLI struct {
	Cairn string   // the cairn binary
	Home  string   // the user's CAIRN_HOME, whose plugins and schemas are shared
	Env   []string // the environment, without the backend and passphrase
}

// workspace is the temporary folder of one test file's stacks.
type workspace struct {
	cli *CLI
	dir string
	env []string
}

func (c *CLI) workspace() (*workspace, error) {
	dir, err := os.MkdirTemp("", "cairn-tftest-")
	if err != nil {
		return nil, err
	}
	home := filepath.Join(dir, "home")
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, err
	}
	for _, shared := range []string{"plugins", "schemas"} {
		if c.Home == "" {
			break
		}
		if err := os.MkdirAll(filepath.Join(c.Home, shared), 0o755); err == nil {
			_ = os.Symlink(filepath.Join(c.Home, shared), filepath.Join(home, shared))
		}
	}
	pass := filepath.Join(dir, "passphrase")
	if err := os.WriteFile(pass, []byte(randomHex(16)), 0o600); err != nil {
		return nil, err
	}
	var env []string
	for _, kv := range c.Env {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "CAIRN_HOME", "CAIRN_BACKEND_URL", "CAIRN_CONFIG_PASSPHRASE", "PULUMI_CONFIG_PASSPHRASE",
			"CAIRN_CONFIG_PASSPHRASE_FILE", "PULUMI_CONFIG_PASSPHRASE_FILE", "CAIRN_STACK", tfplugin.MocksEnv:
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "CAIRN_HOME="+home, "CAIRN_BACKEND_URL=file://"+filepath.Join(dir, "state"), "CAIRN_CONFIG_PASSPHRASE_FILE="+pass)
	return &workspace{cli: c, dir: dir, env: env}, nil
}

// stack copies the configuration in src into the workspace and makes its
// stack; i numbers the stacks of the file.
func (w *workspace) stack(ctx context.Context, src string, i int) (string, error) {
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", err
	}
	// The copy has the folder's name, which names the project.
	dst := filepath.Join(w.dir, fmt.Sprintf("s%d", i), filepath.Base(abs))
	if err := copyConfig(src, dst); err != nil {
		return "", err
	}
	_, err = w.cairn(ctx, dst, "stack", "init", stackName)
	return dst, err
}

// copyConfig copies a configuration's folder, without its dot folders
// (but with .terraform, which holds its installed modules), the state
// files Terraform left, the stacks' configuration files and the test
// files.
func copyConfig(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		name := d.Name()
		if rel != "." && strings.HasPrefix(name, ".") && name != ".terraform" && name != ".terraform.lock.hcl" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if name == "providers" && filepath.Base(filepath.Dir(path)) == ".terraform" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		// The stack configuration files are salted for the user's passphrase.
		stackConfig := strings.HasPrefix(name, "Pulumi.") && name != "Pulumi.yaml" && name != "Pulumi.yml"
		if IsTestFile(name) || strings.HasPrefix(name, "terraform.tfstate") || stackConfig || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, info.Mode().Perm())
	})
}

// cairn runs a cairn command in dir against the workspace's backend.
func (w *workspace) cairn(ctx context.Context, dir string, args ...string) ([]byte, error) {
	args = append([]string{"--cwd", dir, "--stack", stackName, "--non-interactive", "--color", "never"}, args...)
	cmd := exec.CommandContext(ctx, w.cli.Cairn, args...)
	cmd.Env = w.env
	if hasMocks(dir) {
		cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], tfplugin.MocksEnv+"="+mocksFile(dir))
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// The warning that mocks answer is about what cairn test does.
		lines := slices.DeleteFunc(strings.Split(stderr.String(), "\n"), func(l string) bool {
			return strings.HasPrefix(l, "warning: "+tfplugin.MocksEnv+" is set")
		})
		return stdout.Bytes(), fmt.Errorf("cairn %s: %v\n%s", strings.Join(args[7:], " "), err, strings.TrimSpace(strings.Join(lines, "\n")))
	}
	return stdout.Bytes(), nil
}

// document is what `cairn preview --json` (or up, refresh) prints.
type document struct {
	Steps []struct {
		Op  string `json:"op"`
		URN string `json:"urn"`
	} `json:"steps"`
	Diagnostics []struct {
		Message  string `json:"message"`
		Severity string `json:"severity"`
	} `json:"diagnostics"`
	ChangeSummary map[string]int `json:"changeSummary"`
}

// steps lists the operation's steps, one a line, for -verbose.
func (d *document) steps() string {
	var b strings.Builder
	for _, s := range d.Steps {
		fmt.Fprintf(&b, "%s %s\n", s.Op, s.URN)
	}
	return b.String()
}

// operate runs a preview, update or refresh; a failed operation whose
// document says why is not an error: its diagnostics are judged.
func (w *workspace) operate(ctx context.Context, dir string, args []string) (*document, error) {
	out, err := w.cairn(ctx, dir, args...)
	// The update prints its preview's document first, then its own.
	var doc document
	dec := json.NewDecoder(bytes.NewReader(out))
	var jerr error
	for n := 0; ; n++ {
		var d document
		if e := dec.Decode(&d); e != nil {
			if n > 0 {
				jerr = nil
			} else {
				jerr = e
			}
			break
		}
		doc = d
	}
	if jerr != nil {
		if err == nil {
			err = fmt.Errorf("cairn %s printed no JSON document: %v", args[0], jerr)
		}
		return nil, err
	}
	if err != nil && len(doc.Diagnostics) == 0 {
		return nil, err
	}
	return &doc, nil
}

// outputs reads the stack's outputs; a secret one is marked sensitive,
// and stays so where a later run uses it.
func (w *workspace) outputs(ctx context.Context, dir string) (cty.Value, error) {
	out, err := w.cairn(ctx, dir, "stack", "output", "--json", "--show-secrets")
	if err != nil {
		return cty.NilVal, err
	}
	masked, err := w.cairn(ctx, dir, "stack", "output", "--json")
	if err != nil {
		return cty.NilVal, err
	}
	var shown map[string]any
	if err := json.Unmarshal(masked, &shown); err != nil {
		return cty.NilVal, err
	}
	t, err := ctyjson.ImpliedType(out)
	if err != nil {
		return cty.NilVal, err
	}
	v, err := ctyjson.Unmarshal(out, t)
	if err != nil || !v.Type().IsObjectType() {
		return v, err
	}
	attrs := v.AsValueMap()
	for name, a := range attrs {
		if shown[name] == "[secret]" {
			attrs[name] = a.Mark(sensitive)
		}
	}
	return cty.ObjectVal(attrs), nil
}

// sensitive marks the values of secret outputs.
const sensitive = "sensitive"

// destroy deletes the stack's resources; when that fails it says what is
// left and how to remove it, and the workspace is kept for that.
func (w *workspace) destroy(ctx context.Context, dir string) string {
	// An interrupted test still cleans up.
	ctx = context.WithoutCancel(ctx)
	_, err := w.cairn(ctx, dir, "destroy", "--yes")
	if err == nil {
		return ""
	}
	left := "(cairn stack export could not read the state)"
	if out, xerr := w.cairn(ctx, dir, "stack", "export"); xerr == nil {
		var dep struct {
			Deployment struct {
				Resources []struct {
					URN  string `json:"urn"`
					Type string `json:"type"`
				} `json:"resources"`
			} `json:"deployment"`
		}
		if json.Unmarshal(out, &dep) == nil {
			var urns []string
			for _, r := range dep.Deployment.Resources {
				if r.Type != "pulumi:pulumi:Stack" && !strings.HasPrefix(r.Type, "pulumi:providers:") {
					urns = append(urns, "  "+r.URN)
				}
			}
			left = strings.Join(urns, "\n")
		}
	}
	env := fmt.Sprintf("CAIRN_HOME=%s CAIRN_BACKEND_URL=file://%s CAIRN_CONFIG_PASSPHRASE_FILE=%s",
		filepath.Join(w.dir, "home"), filepath.Join(w.dir, "state"), filepath.Join(w.dir, "passphrase"))
	return fmt.Sprintf("Destroying the test's stack failed: %v\nLeft in it:\n%s\nRemove them with:\n  %s %s destroy --cwd %s --stack %s --yes\n"+
		"(a protected resource first needs: %s %s state unprotect --cwd %s --stack %s URN)\nthen delete %s.",
		err, left, env, w.cli.Cairn, dir, stackName, env, w.cli.Cairn, dir, stackName, w.dir)
}

func (w *workspace) remove() { _ = os.RemoveAll(w.dir) }
