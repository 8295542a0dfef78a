package analyzer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/locate"
	"github.com/cairn-iac/cairn/internal/plugintest"
	"github.com/cairn-iac/cairn/plugins/langhost"
)

// TestNodejsPolicyPack runs a pack written with @pulumi/policy from npm,
// unchanged, through Cairn's own Node.js language host and, where it is on
// PATH, through pulumi-language-nodejs's RunPlugin, as Pulumi does.
func TestNodejsPolicyPack(t *testing.T) {
	t.Run("cairn", func(t *testing.T) { testNodejsPolicyPack(t, "cairn") })
	t.Run("pulumi", func(t *testing.T) {
		if _, err := exec.LookPath("pulumi-language-nodejs"); err != nil {
			msg := "SKIPPED " + t.Name() + ": pulumi-language-nodejs is not on PATH, so the pack is not run through Pulumi's Node.js host"
			fmt.Fprintln(os.Stderr, msg)
			t.Skip(msg)
		}
		testNodejsPolicyPack(t, "pulumi")
	})
}

func testNodejsPolicyPack(t *testing.T, langHost string) {
	t.Setenv(langhost.HostEnv, langHost)
	dir := t.TempDir()
	for _, f := range []string{"PulumiPolicy.yaml", "package.json", "index.js"} {
		b, err := os.ReadFile(filepath.Join("testdata", "nodejs-pack", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plugintest.NodeModules(t, dir)

	ctx := context.Background()
	c, err := Start(ctx, dir, Options{Stack: "dev", Project: "proj", DryRun: true, Dirs: locate.DefaultDirs()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Name() != "guards" {
		t.Errorf("name = %q, want guards", c.Name())
	}
	short, long := thing("short", false), thing("long", false)
	short.Type, long.Type = "random:index/randomString:RandomString", "random:index/randomString:RandomString"
	short.Inputs["length"], long.Inputs["length"] = resource.Number(4), resource.Number(20)

	vs, err := c.Analyze(ctx, short)
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Policy != "long-enough" || vs[0].Pack != "guards" || vs[0].Level != policy.Mandatory ||
		vs[0].URN != short.URN || !strings.Contains(vs[0].Message, "short is only 4 characters long") {
		t.Errorf("Analyze(short) = %+v", vs)
	}
	if vs, err := c.Analyze(ctx, long); err != nil || len(vs) != 0 {
		t.Errorf("Analyze(long) = %+v, %v", vs, err)
	}
	vs, err = c.AnalyzeStack(ctx, []policy.Resource{short, long})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 1 || vs[0].Policy != "few" || vs[0].Level != policy.Advisory || !strings.Contains(vs[0].Message, "too many random strings in proj/dev") {
		t.Errorf("AnalyzeStack = %+v", vs)
	}
}
