package cairntest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/cairn-iac/cairn/engine/deploy"
)

// commands are the scenario commands that inspect the stack.
var commands = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"outputs-match":  outputsMatch,
	"changes":        changes,
	"resource-count": resourceCount,
}

// outputsMatch checks a stack output against a regular expression:
// "outputs-match KEY REGEXP". Secrets are compared in plaintext but never
// logged: a mismatch shows the output as `cairn stack output` does.
func outputsMatch(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: outputs-match KEY REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	plain := outputs(ts, "--show-secrets")
	v, ok := plain[args[0]]
	if !ok {
		ts.Fatalf("the stack has no output %q; it has %s", args[0], keys(plain))
	}
	switch {
	case re.MatchString(v) && neg:
		ts.Fatalf("output %s = %q matches %q", args[0], outputs(ts)[args[0]], re)
	case !re.MatchString(v) && !neg:
		ts.Fatalf("output %s = %q does not match %q", args[0], outputs(ts)[args[0]], re)
	}
}

// outputs returns the stack's outputs as text, as `cairn stack output
// --json` with the flags prints them.
func outputs(ts *testscript.TestScript, flags ...string) map[string]string {
	var raw map[string]any
	ts.Check(json.Unmarshal(cairn(ts, append([]string{"stack", "output", "--json"}, flags...)...), &raw))
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		if s, ok := v.(string); ok {
			out[k] = s
			continue
		}
		data, err := json.Marshal(v)
		ts.Check(err)
		out[k] = string(data)
	}
	return out
}

func keys(m map[string]string) string {
	if len(m) == 0 {
		return "none"
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ", ")
}

// ops are the operations a change summary counts.
var ops = []deploy.Op{
	deploy.OpSame, deploy.OpCreate, deploy.OpUpdate, deploy.OpDelete, deploy.OpReplace,
	deploy.OpCreateReplacement, deploy.OpDeleteReplaced, deploy.OpRead, deploy.OpReadReplacement,
	deploy.OpRefresh, deploy.OpDiscard, deploy.OpRemovePendingReplace, deploy.OpImport, deploy.OpImportReplacement,
}

// changes checks the change summary printed by the last command, `cairn
// preview --json` (or `up --json`): "changes OP=N...", where an operation
// not in the summary counts 0 and operations not named are not checked.
func changes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: changes OP=N... (after exec cairn preview --json)")
	}
	var doc struct {
		ChangeSummary map[deploy.Op]int `json:"changeSummary"`
	}
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &doc); err != nil {
		ts.Fatalf("changes reads the change summary of the last command's output, which is not JSON (%v): run `exec cairn preview --json` first", err)
	}
	var wrong []string
	for _, a := range args {
		op, count, ok := strings.Cut(a, "=")
		n, err := strconv.Atoi(count)
		if !ok || err != nil || !slices.Contains(ops, deploy.Op(op)) {
			ts.Fatalf("changes: %q is not OP=N, with OP one of %s", a, opNames())
		}
		if got := doc.ChangeSummary[deploy.Op(op)]; got != n {
			wrong = append(wrong, fmt.Sprintf("%s=%d, want %d", op, got, n))
		}
	}
	if len(wrong) > 0 {
		ts.Fatalf("change summary: %s (the whole summary: %s)", strings.Join(wrong, "; "), summaryText(doc.ChangeSummary))
	}
}

// summaryText renders a change summary as "OP=N OP=N", in the order of ops.
func summaryText(sum map[deploy.Op]int) string {
	var parts []string
	for _, op := range ops {
		if n, ok := sum[op]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", op, n))
		}
	}
	if len(parts) == 0 {
		return "no steps"
	}
	return strings.Join(parts, " ")
}

func opNames() string {
	names := make([]string, len(ops))
	for i, op := range ops {
		names[i] = string(op)
	}
	return strings.Join(names, ", ")
}

// resourceCount checks how many resources the stack's state holds, the
// stack itself and providers included: "resource-count N".
func resourceCount(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: resource-count N")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("usage: resource-count N (%q is not a number)", args[0])
	}
	var doc struct {
		Deployment struct {
			Resources []struct {
				URN string `json:"urn"`
			} `json:"resources"`
		} `json:"deployment"`
	}
	ts.Check(json.Unmarshal(cairn(ts, "stack", "export"), &doc))
	if got := doc.Deployment.Resources; len(got) != want {
		var urns []string
		for _, r := range got {
			urns = append(urns, "\n\t"+r.URN)
		}
		ts.Fatalf("the stack has %d resources, want %d:%s", len(got), want, strings.Join(urns, ""))
	}
}

// env are the variables of the scenario that cairn, run by a command, sees.
var env = []string{
	"PATH", "HOME", "TMPDIR", "NO_COLOR", "CAIRN_HOME", "CAIRN_BACKEND_URL", "CAIRN_CONFIG_PASSPHRASE",
	"PULUMI_CONFIG_PASSPHRASE", "CAIRN_STACK", "CAIRN_LOG", "GOCOVERDIR",
}

// cairn runs cairn in the scenario's current folder and returns its
// standard output; unlike exec, it does not log what cairn prints, which
// may hold secrets.
func cairn(ts *testscript.TestScript, args ...string) []byte {
	cmd := exec.Command(filepath.Join(ts.Getenv("WORK"), ".bin", "cairn"), args...)
	cmd.Dir = ts.MkAbs(".")
	for _, k := range env {
		if v := ts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		ts.Fatalf("cairn %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}
