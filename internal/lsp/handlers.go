package lsp

import (
	"context"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/eval"
)

// freshWait bounds the wait of a request for an analysis of the document
// as it is: a check waiting for a plugin to start must not hold the
// editor up.
const freshWait = 2 * time.Second

// view is what a request sees of a document: its text, the newest
// analysis of its unit (nil before the first) and its project's schemas.
type view struct {
	d   *document
	a   *analysis
	sch *schemas
}

// view returns what a request sees of the document uri; fresh says
// whether it needs an analysis of the document as it is now, rather than
// the newest one that could read the program.
func (s *server) view(ctx context.Context, uri string, fresh bool) (*view, error) {
	d, err := s.ws.documentOf(uri)
	if err != nil {
		return nil, err
	}
	p := s.ws.project(s.ws.projectDir(d.path))
	v := &view{d: d, sch: p.schemas}
	ctx, cancel := context.WithTimeout(ctx, freshWait)
	defer cancel()
	if fresh {
		v.a = s.ws.current(ctx, d)
	}
	if v.a == nil {
		v.a = s.ws.latest(ctx, d)
	}
	return v, nil
}

func (s *server) completion(ctx context.Context, p *textDocumentPositionParams) (*CompletionList, error) {
	v, err := s.view(ctx, p.TextDocument.URI, false)
	if err != nil {
		return nil, err
	}
	off := v.d.text.offset(p.Position)
	list := &CompletionList{}
	switch languageOf(v.d.path) {
	case "hcl":
		list = v.hclCompletion(off)
	case "yaml":
		list = v.yamlCompletion(off)
	}
	if list.Items == nil {
		list.Items = []CompletionItem{} // the protocol wants an array
	}
	return list, nil
}

func (s *server) hover(ctx context.Context, p *textDocumentPositionParams) (*Hover, error) {
	v, err := s.view(ctx, p.TextDocument.URI, true)
	if err != nil {
		return nil, err
	}
	off := v.d.text.offset(p.Position)
	var doc string
	var rng Range
	switch languageOf(v.d.path) {
	case "hcl":
		doc, rng = v.hclHover(off)
	case "yaml":
		doc, rng = v.yamlHover(off)
	}
	if doc == "" {
		return nil, nil
	}
	return &Hover{Contents: *markdown(doc), Range: &rng}, nil
}

func (s *server) definition(ctx context.Context, p *textDocumentPositionParams) (*Location, error) {
	v, err := s.view(ctx, p.TextDocument.URI, true)
	if err != nil || v.a == nil {
		return nil, err
	}
	off := v.d.text.offset(p.Position)
	if r := v.a.referenceAt(v.d.path, off); r != nil {
		if rng := v.a.definition(r); rng != nil {
			return v.a.location(*rng), nil
		}
	}
	if languageOf(v.d.path) == "hcl" {
		return v.moduleSource(off), nil
	}
	return nil, nil
}

// location returns the protocol location of a range of the analysis.
func (a *analysis) location(r hcl.Range) *Location {
	path := a.path(r.Filename)
	uri := uriOf(path)
	if d := a.docs[path]; d != nil {
		uri = d.uri
	}
	return &Location{URI: uri, Range: a.rangeOf(path, r)}
}

// moduleSource returns the first file of the module whose source is under
// off: source = "./modules/web" leads into the module.
func (v *view) moduleSource(off int) *Location {
	f, _ := hclsyntax.ParseConfig(v.d.text.src, v.d.path, hcl.InitialPos)
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	for _, b := range body.Blocks {
		src := b.Body.Attributes["source"]
		if b.Type != "module" || src == nil || !contains(src.Expr.Range(), off) {
			continue
		}
		val, diags := src.Expr.Value(nil)
		if diags.HasErrors() || val.Type() != cty.String || val.IsNull() {
			return nil
		}
		files, _ := filepath.Glob(filepath.Join(filepath.Dir(v.d.path), val.AsString(), "*.hcl"))
		if len(files) == 0 {
			return nil
		}
		sort.Strings(files)
		return &Location{URI: uriOf(files[0])}
	}
	return nil
}

func (s *server) documentSymbol(ctx context.Context, p *struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}) ([]DocumentSymbol, error) {
	v, err := s.view(ctx, p.TextDocument.URI, true)
	if err != nil || v.a == nil {
		return nil, err
	}
	out := []DocumentSymbol{}
	for _, sc := range v.a.scopes() {
		for _, n := range sc.Nodes {
			d := n.Declaration()
			if v.a.path(d.DeclRange.Filename) != v.d.path {
				continue
			}
			rng := v.a.declRange(v.d.path, d.DeclRange)
			sel := v.a.rangeOf(v.d.path, d.NameRange)
			name := d.Name
			if path := refPath(n); len(path) > 1 {
				name = strings.Join(path, ".")
			}
			out = append(out, DocumentSymbol{Name: name, Detail: symbolDetail(n), Kind: symbolKind(n), Range: rng, SelectionRange: sel})
		}
	}
	return out, nil
}

// declRange returns the range of a whole declaration: for an HCL block,
// its body too.
func (a *analysis) declRange(path string, r hcl.Range) Range {
	if f := a.file(path); f != nil {
		if body, ok := f.Body.(*hclsyntax.Body); ok {
			for _, b := range body.Blocks {
				if b.DefRange() == r {
					return a.rangeOf(path, b.Range())
				}
			}
		}
	}
	return a.rangeOf(path, r)
}

func symbolKind(n eval.Node) int {
	switch n.(type) {
	case *eval.Config:
		return symbolConstant
	case *eval.Local:
		return symbolVariable
	case *eval.Resource:
		return symbolObject
	case *eval.Invoke:
		return symbolFunction
	case *eval.Module:
		return symbolModule
	case *eval.Output:
		return symbolProperty
	}
	return symbolEvent
}

func symbolDetail(n eval.Node) string {
	switch n := n.(type) {
	case *eval.Resource:
		return n.Type
	case *eval.Invoke:
		return n.Token
	case *eval.Module:
		return n.Type
	}
	return n.Declaration().Noun
}

func (s *server) formatting(ctx context.Context, p *struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}) ([]TextEdit, error) {
	d, err := s.ws.documentOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if languageOf(d.path) != "hcl" {
		return nil, nil
	}
	if _, diags := hclsyntax.ParseConfig(d.text.src, d.path, hcl.InitialPos); diags.HasErrors() {
		return nil, nil // formatting what does not parse could make it worse
	}
	out := hclwrite.Format(d.text.src)
	if string(out) == string(d.text.src) {
		return []TextEdit{}, nil
	}
	whole := Range{End: d.text.position(len(d.text.src))}
	return []TextEdit{{Range: whole, NewText: string(out)}}, nil
}

// suggestion finds the names a diagnostic suggests: `Did you mean "x"?`
// or `Did you mean "x", "y" or "z"?`.
var suggestion = regexp.MustCompile(`Did you mean ((?:"[^"]+"(?:, | or )?)+)\?`)
var quotedName = regexp.MustCompile(`"([^"]+)"`)

func (s *server) codeAction(ctx context.Context, p *codeActionParams) ([]CodeAction, error) {
	d, err := s.ws.documentOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []CodeAction{}
	for _, diag := range p.Context.Diagnostics {
		m := suggestion.FindStringSubmatch(diag.Message)
		if m == nil {
			continue
		}
		start, end := d.text.offset(diag.Range.Start), d.text.offset(diag.Range.End)
		for i, q := range quotedName.FindAllStringSubmatch(m[1], -1) {
			edit, ok := replacement(d.text.src[start:end], q[1])
			if !ok {
				continue
			}
			edit.start, edit.end = edit.start+start, edit.end+start
			out = append(out, CodeAction{
				Title: "Change to " + q[1], Kind: "quickfix", Diagnostics: []Diagnostic{diag}, IsPreferred: i == 0,
				Edit: WorkspaceEdit{Changes: map[string][]TextEdit{p.TextDocument.URI: {{
					Range:   Range{Start: d.text.position(edit.start), End: d.text.position(edit.end)},
					NewText: q[1],
				}}}},
			})
		}
	}
	return out, nil
}

type span struct{ start, end int }

// replacement returns the part of a diagnostic's text that a suggested
// name replaces: the whole of it but for quotes and a leading dot, or
// its first name when that is closer (an unknown root of a longer
// reference).
func replacement(text []byte, name string) (span, bool) {
	s := string(text)
	lead := len(s) - len(strings.TrimLeft(s, `."' `))
	trail := len(strings.TrimRight(s, `"' `))
	if trail <= lead {
		return span{}, false
	}
	whole := span{lead, trail}
	first := whole
	if i := strings.IndexAny(s[lead:trail], ".["); i > 0 {
		first.end = lead + i
	}
	if levenshtein.Distance(s[first.start:first.end], name, nil) < levenshtein.Distance(s[whole.start:whole.end], name, nil) {
		return first, true
	}
	return whole, true
}
