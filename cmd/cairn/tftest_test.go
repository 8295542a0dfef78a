package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// tftestCorpus holds the cases TestTerraformTestDifferential runs: each a
// configuration with its tests/*.tftest.hcl.
const tftestCorpus = "../../testdata/tftest"

// tftestScript runs a case's test files under tofu test -json and cairn
// test -json, and compares the verdict of every run. Every case holds a
// run that fails, so both exit with status 1.
const tftestScript = `cd tf
exec tofu init -input=false -no-color
! exec tofu test -json -no-color
cp stdout $WORK/tofu.json
cd $WORK/cn
! exec cairn test -json
cp stdout $WORK/cairn.json
tftestcompare $WORK/tofu.json $WORK/cairn.json
`

// TestTerraformTestDifferential runs the test files of testdata/tftest
// under OpenTofu and Cairn: every run must get the same verdict (pass,
// fail, error or skip) and the summaries the same counts.
func TestTerraformTestDifferential(t *testing.T) {
	if _, err := exec.LookPath("tofu"); err != nil {
		if os.Getenv(requireTofuEnv) == "1" {
			t.Fatalf("tofu is not on PATH, and %s=1 requires it: build it with .ci/tofu and put its folder on PATH", requireTofuEnv)
		}
		fmt.Fprintln(os.Stderr, "SKIPPED: tofu is not on PATH")
		t.Skip("SKIPPED: tofu is not on PATH")
	}
	cases, err := os.ReadDir(tftestCorpus)
	if err != nil {
		t.Fatal(err)
	}
	scripts := t.TempDir()
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		var b strings.Builder
		b.WriteString("# " + c.Name() + ": tofu test and cairn test.\n" + tftestScript + "\n")
		src := filepath.Join(tftestCorpus, c.Name())
		err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, side := range []string{"tf", "cn"} {
				fmt.Fprintf(&b, "-- %s/%s --\n%s", side, filepath.ToSlash(rel), data)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(scripts, c.Name()+".txtar"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mirror := t.TempDir()
	buildMirror(t, mirror)
	p := scriptParams(nil)
	p.Dir, p.UpdateScripts = scripts, false
	p.Cmds["tftestcompare"] = tftestCompareCmd
	useMirror(&p, mirror)
	testscript.Run(t, p)
}

// tftestCompareCmd compares the verdicts of two tofu test -json logs:
// tftestcompare TOFU CAIRN.
func tftestCompareCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: tftestcompare TOFU.json CAIRN.json")
	}
	want, got := testVerdicts(ts, args[0]), testVerdicts(ts, args[1])
	var keys []string
	for k := range want {
		keys = append(keys, k)
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var diffs []string
	for _, k := range keys {
		if want[k] != got[k] {
			diffs = append(diffs, fmt.Sprintf("%s: tofu %q, cairn %q", k, want[k], got[k]))
		}
	}
	if len(diffs) > 0 {
		ts.Fatalf("verdicts differ:\n%s", strings.Join(diffs, "\n"))
	}
	ts.Logf("%d verdicts agree", len(keys))
}

// testVerdicts reads the verdict of each file and run, and the summary's
// counts, from a tofu test -json log.
func testVerdicts(ts *testscript.TestScript, name string) map[string]string {
	f, err := os.Open(ts.MkAbs(name))
	ts.Check(err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type    string `json:"type"`
			TestRun struct {
				Path, Run, Status string
			} `json:"test_run"`
			TestFile struct {
				Path, Status string
			} `json:"test_file"`
			Summary struct {
				Status                           string
				Passed, Failed, Errored, Skipped int
			} `json:"test_summary"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch line.Type {
		case "test_run":
			out["run "+line.TestRun.Path+" "+line.TestRun.Run] = line.TestRun.Status
		case "test_file":
			out["file "+line.TestFile.Path] = line.TestFile.Status
		case "test_summary":
			s := line.Summary
			out["summary"] = fmt.Sprintf("%s passed=%d failed=%d errored=%d skipped=%d", s.Status, s.Passed, s.Failed, s.Errored, s.Skipped)
		}
	}
	ts.Check(sc.Err())
	return out
}
