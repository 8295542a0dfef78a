package tfinstall

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/cairn-iac/cairn/internal/atomicfile"
	"github.com/cairn-iac/cairn/plugins/tfaddr"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// LockFileName is the dependency lock file Terraform and OpenTofu keep in
// a project's folder; Cairn reads and writes the same file.
const LockFileName = ".terraform.lock.hcl"

// Lock is one provider's block in the lock file: the version selected, the
// constraints it was selected under and the hashes its packages must have.
type Lock struct {
	Source      string // fully qualified, e.g. registry.opentofu.org/hashicorp/null
	Version     string
	Constraints string   // canonical; empty when there were none
	Hashes      []string // sorted; "h1:…" and "zh:…"
}

// ReadLocks reads the lock file in projectDir, keyed by source; a missing
// file holds no locks.
func ReadLocks(projectDir string) (map[string]Lock, error) {
	path := filepath.Join(projectDir, LockFileName)
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[string]Lock{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseLocks(src, path)
}

// ParseLocks reads lock file content; filename names it in errors. Like
// Terraform it insists on the canonical forms it writes, so that a diff
// of the file always means a change of substance.
func ParseLocks(src []byte, filename string) (map[string]Lock, error) {
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	content, diags := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "provider", LabelNames: []string{"source"}},
		{Type: "module", LabelNames: []string{"path"}}, // reserved by Terraform, ignored
	}})
	locks := map[string]Lock{}
	seen := map[string]hcl.Range{}
	for _, b := range content.Blocks {
		if b.Type != "provider" {
			continue
		}
		lock, more := decodeLock(b)
		diags = append(diags, more...)
		if more.HasErrors() {
			continue
		}
		if prev, ok := seen[lock.Source]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate provider lock",
				Detail:   fmt.Sprintf("%s is also locked at %s; keep one of the two blocks.", lock.Source, position(prev)),
				Subject:  b.DefRange.Ptr(),
			})
			continue
		}
		seen[lock.Source] = b.DefRange
		locks[lock.Source] = lock
	}
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	return locks, nil
}

func decodeLock(b *hcl.Block) (Lock, hcl.Diagnostics) {
	invalid := func(r hcl.Range, summary, format string, args ...any) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: r.Ptr()}}
	}
	raw := b.Labels[0]
	p, err := tfaddr.ParseProvider(raw)
	if err != nil {
		return Lock{}, invalid(b.LabelRanges[0], "Invalid provider source address", "%v.", err)
	}
	if p.String() != raw {
		return Lock{}, invalid(b.LabelRanges[0], "Non-normalized provider source address", "Write it as %q, fully qualified and in lower case.", p.String())
	}
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true}, {Name: "constraints"}, {Name: "hashes"},
	}})
	if diags.HasErrors() {
		return Lock{}, diags
	}
	lock := Lock{Source: raw}
	attr := content.Attributes["version"]
	if diags = gohcl.DecodeExpression(attr.Expr, nil, &lock.Version); diags.HasErrors() {
		return Lock{}, diags
	}
	v, err := tfaddr.ParseVersion(lock.Version)
	if err != nil {
		return Lock{}, invalid(attr.Expr.Range(), "Invalid provider version", "The version of %s is invalid: %v.", raw, err)
	}
	if v.String() != lock.Version {
		return Lock{}, invalid(attr.Expr.Range(), "Non-normalized provider version", "Write the version of %s as %q.", raw, v.String())
	}
	if attr := content.Attributes["constraints"]; attr != nil {
		if diags = gohcl.DecodeExpression(attr.Expr, nil, &lock.Constraints); diags.HasErrors() {
			return Lock{}, diags
		}
		cs, err := tfaddr.ParseConstraints(lock.Constraints)
		if err != nil {
			return Lock{}, invalid(attr.Expr.Range(), "Invalid provider version constraints", "The constraints of %s are invalid: %v.", raw, err)
		}
		if cs.String() != lock.Constraints {
			return Lock{}, invalid(attr.Expr.Range(), "Non-normalized provider version constraints", "Write the constraints of %s as %q.", raw, cs.String())
		}
	}
	if attr := content.Attributes["hashes"]; attr != nil {
		exprs, diags := hcl.ExprList(attr.Expr)
		if diags.HasErrors() {
			return Lock{}, diags
		}
		if len(exprs) == 0 {
			return Lock{}, invalid(attr.Expr.Range(), "Invalid provider hash set", "The hashes of %s must hold at least one hash, or be left out.", raw)
		}
		for _, e := range exprs {
			var h string
			if diags := gohcl.DecodeExpression(e, nil, &h); diags.HasErrors() {
				return Lock{}, diags
			}
			if i := strings.IndexByte(h, ':'); i < 1 {
				return Lock{}, invalid(e.Range(), "Invalid provider hash", "%q has no scheme; hashes look like \"h1:…\" or \"zh:…\".", h)
			}
			lock.Hashes = append(lock.Hashes, h)
		}
	}
	return lock, nil
}

// defaultHeader opens a new lock file: OpenTofu's header.
const defaultHeader = "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n"

// FormatLocks returns the lock file holding locks, laid out as Terraform
// and OpenTofu write it: their header, then the providers sorted by
// source, each with its version, constraints and sorted hashes.
func FormatLocks(locks map[string]Lock) []byte { return formatLocks(locks, defaultHeader) }

// lockHeader returns the header of the lock file content old, so that a
// file "terraform init" made keeps saying so; OpenTofu's for a new file.
func lockHeader(old []byte) string {
	if !bytes.HasPrefix(old, []byte("# This file is maintained automatically by ")) {
		return defaultHeader
	}
	var header []byte
	for line := range bytes.Lines(old) {
		if !bytes.HasPrefix(line, []byte("#")) {
			break
		}
		header = append(header, line...)
	}
	return string(header)
}

func formatLocks(locks map[string]Lock, header string) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{{Type: hclsyntax.TokenComment, Bytes: []byte(header)}})
	sources := make([]string, 0, len(locks))
	for s := range locks {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	for _, s := range sources {
		lock := locks[s]
		body.AppendNewline()
		b := body.AppendNewBlock("provider", []string{s}).Body()
		b.SetAttributeValue("version", cty.StringVal(lock.Version))
		if lock.Constraints != "" {
			b.SetAttributeValue("constraints", cty.StringVal(lock.Constraints))
		}
		if len(lock.Hashes) > 0 {
			b.SetAttributeRaw("hashes", hashTokens(lock.Hashes))
		}
	}
	return hclwrite.Format(f.Bytes())
}

// hashTokens writes a list of hashes one a line, with a trailing comma.
func hashTokens(hashes []string) hclwrite.Tokens {
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, h := range sortedUnique(hashes) {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(h))...)
		toks = append(toks,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")})
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

func sortedUnique(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

// lockFileMu serializes the read-merge-write of lock files within this
// process, so that providers installed concurrently all get recorded.
var lockFileMu sync.Mutex

// WriteLocks replaces the providers in projectDir's lock file with locks,
// atomically: readers see the old file or the new one, never a part. An
// unchanged file is not rewritten.
func WriteLocks(projectDir string, locks map[string]Lock) error {
	path := filepath.Join(projectDir, LockFileName)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	content := formatLocks(locks, lockHeader(old))
	if bytes.Equal(old, content) {
		return nil
	}
	return atomicfile.Write(path, content, atomicfile.Perm(path, 0o644))
}

// updateLock records lock in projectDir's lock file, keeping the other
// providers' blocks as they are on disk now.
func updateLock(projectDir string, lock Lock) error {
	lockFileMu.Lock()
	defer lockFileMu.Unlock()
	locks, err := ReadLocks(projectDir)
	if err != nil {
		return err
	}
	locks[lock.Source] = lock
	return WriteLocks(projectDir, locks)
}

// diagError turns HCL error diagnostics into one error, a line each:
// file:line:column: summary: detail.
func diagError(diags hcl.Diagnostics) error {
	var lines []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		line := d.Summary
		if d.Detail != "" {
			line += ": " + d.Detail
		}
		if d.Subject != nil {
			line = position(*d.Subject) + ": " + line
		}
		lines = append(lines, line)
	}
	return errors.New(strings.Join(lines, "\n"))
}

func position(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
