package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/workspace"
)

// fastPathEnv names the variable that says which providers the fast path
// trusts besides Cairn's own; it overrides the project's `cairn: fastPath:`.
const fastPathEnv = "CAIRN_FAST_PATH"

// setFastPath sets the fast path options of an operation: off with
// --no-fast-path or --refresh, else as CAIRN_FAST_PATH says when it is set,
// else as the project's setting says.
func (r *operation) setFastPath() error {
	var fp workspace.FastPath
	if v := os.Getenv(fastPathEnv); strings.TrimSpace(v) != "" {
		var err error
		if fp, err = workspace.ParseFastPath(strings.Split(v, ",")); err != nil {
			return fmt.Errorf("%s=%s: %w", fastPathEnv, v, err)
		}
	} else if p := r.s.project; p != nil && p.FastPath != nil {
		fp = *p.FastPath
	}
	r.opts.NoFastPath = r.c.Bool("no-fast-path") || r.c.Bool("refresh") || fp.None
	r.opts.FastPathAll, r.opts.FastPathPackages = fp.All, fp.Packages
	return nil
}

// fastPathHint returns the line a no-change preview ends with when it
// spent most of its time in the Check and Diff calls of resources that the
// fast path would have skipped had it trusted their provider: how to opt
// their packages in. It is "" otherwise.
func fastPathHint(res *deploy.Result) string {
	if res == nil || res.HasChanges() || 2*res.UntrustedTime <= res.Duration {
		return ""
	}
	n := 0
	for _, c := range res.Untrusted {
		n += c
	}
	if n == 0 {
		return ""
	}
	pkgs := slices.Sorted(maps.Keys(res.Untrusted))
	what := fmt.Sprintf("%d unchanged resources", n)
	if n == 1 {
		what = "1 unchanged resource"
	}
	if len(pkgs) == 1 {
		what += " of package " + pkgs[0]
	} else {
		what += " of packages " + strings.Join(pkgs, ", ")
	}
	return fmt.Sprintf("Hint: Check and Diff of %s took %.1fs of this %.1fs preview; "+
		"if their provider answers them from its inputs alone, let the fast path skip them: %s=%s, or `cairn: {fastPath: [%s]}` in Pulumi.yaml.\n",
		what, res.UntrustedTime.Seconds(), res.Duration.Seconds(), fastPathEnv, strings.Join(pkgs, ","), strings.Join(pkgs, ", "))
}
