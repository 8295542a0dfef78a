package analyzer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/policy"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/locate"
)

// TestNodejsPolicyPack runs a pack written with @pulumi/policy from npm,
// unchanged, through pulumi-language-nodejs's RunPlugin, as Pulumi does.
func TestNodejsPolicyPack(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED: installs @pulumi/policy from npm")
	}
	for _, bin := range []string{"pulumi-language-nodejs", "node", "npm"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("SKIPPED: %s is not on PATH; the Node.js policy pack test needs it (build pulumi-language-nodejs from Pulumi's sdk/nodejs/cmd)", bin)
		}
	}
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
	npm := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "@pulumi/policy", "@pulumi/pulumi")
	npm.Dir = dir
	if out, err := npm.CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: npm install @pulumi/policy @pulumi/pulumi failed (is the npm registry reachable?): %v\n%s", err, out)
	}

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
	if len(vs) != 1 || vs[0].Policy != "few" || vs[0].Level != policy.Advisory || !strings.Contains(vs[0].Message, "too many random strings") {
		t.Errorf("AnalyzeStack = %+v", vs)
	}
}
