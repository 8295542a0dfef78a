package yaml

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"
	yaml "go.yaml.in/yaml/v4"

	"github.com/cairn-iac/cairn/engine/workspace"
)

// node is a YAML node with its source range, aliases resolved and merge
// keys (<<) applied: what the rest of the front end reads.
type node struct {
	kind  yaml.Kind // ScalarNode, MappingNode or SequenceNode
	tag   string    // the resolved short tag of a scalar: !!str, !!int, ...
	value string
	style yaml.Style
	rng   hcl.Range
	text  int // byte offset of the scalar's text (after a quote or block header)
	pairs []pair
	items []*node
	src   *source
}

// pair is a key and value of a mapping.
type pair struct {
	key, value *node
}

// Aliases may add to a document at most maxAliasNodes nodes, or
// aliasFactor times the nodes it has itself if that is more: enough for a
// mapping of defaults merged into each of many resources, not for a few
// lines of nested aliases that expand to billions.
const (
	maxAliasNodes = 200_000
	aliasFactor   = 10
)

// parseDocument parses a YAML (or JSON) file into its root node, which is
// nil for an empty file.
func parseDocument(src *source) (*node, hcl.Diagnostics) {
	dec := yaml.NewDecoder(strings.NewReader(string(src.bytes)))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, hcl.Diagnostics{syntaxError(src, err)}
	}
	var diags hcl.Diagnostics
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		at := src.offset(extra.Line, extra.Column)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "More than one document",
			Detail:   "A program file holds one YAML document; remove the document separator (---) and merge the documents, or move the second one to its own *.cairn.yaml file.",
			Subject:  src.rng(at, src.lineEnd(at)).Ptr(),
		})
	}
	limit := max(maxAliasNodes, aliasFactor*countNodes(&doc))
	b := &builder{src: src, budget: limit, limit: limit, active: map[*yaml.Node]bool{}}
	root := b.node(&doc)
	if b.budget < 0 {
		// What was built is missing the aliases' nodes: reading it would
		// only report what is missing.
		root = nil
	}
	return root, append(diags, b.diags...)
}

// countNodes counts the nodes of a document as written, not following
// aliases.
func countNodes(y *yaml.Node) int {
	n := 1
	for _, c := range y.Content {
		n += countNodes(c)
	}
	return n
}

// syntaxError turns the YAML parser's error into a diagnostic at the line
// and column of the problem.
func syntaxError(src *source, err error) *hcl.Diagnostic {
	msg, at := err.Error(), 0
	if se := (*workspace.SyntaxError)(nil); errors.As(workspace.LocateYAMLError(src.name, src.bytes, err), &se) {
		at = src.offset(se.Line, se.Column)
		msg = se.Message
	}
	detail := "The file is not valid YAML: " + msg + "."
	if strings.Contains(string(src.bytes[at:src.lineEnd(at)]), "${") {
		detail += ` A ${…} expression that holds ": " or " #" must be quoted: write "${…}".`
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Invalid YAML",
		Detail:   detail,
		Subject:  src.rng(at, src.lineEnd(at)).Ptr(),
	}
}

// builder converts the YAML parser's nodes.
type builder struct {
	src    *source
	limit  int                 // the nodes aliases may add
	budget int                 // the nodes aliases may still add
	active map[*yaml.Node]bool // anchors being expanded
	alias  *yaml.Node          // the outermost alias being expanded
	diags  hcl.Diagnostics
}

func (b *builder) errorf(rng hcl.Range, summary, format string, args ...any) {
	b.diags = append(b.diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: rng.Ptr()})
}

func (b *builder) node(y *yaml.Node) *node {
	if b.alias != nil {
		b.budget--
	}
	if b.budget == -1 {
		start := b.src.offset(b.alias.Line, b.alias.Column)
		b.errorf(b.src.rng(start, start+1+len(b.alias.Value)), "Document too large",
			"Its aliases expand to more than %d nodes, more than aliases may add to a document of its size; use fewer nested aliases.", b.limit)
	}
	if b.budget < 0 {
		return nil
	}
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return nil
		}
		return b.node(y.Content[0])
	case yaml.AliasNode:
		if y.Alias == nil || b.active[y.Alias] {
			start := b.src.offset(y.Line, y.Column)
			b.errorf(b.src.rng(start, start+1+len(y.Value)), "Recursive alias", "The alias *%s is used inside its own anchor.", y.Value)
			return nil
		}
		if b.alias == nil {
			b.alias = y
			defer func() { b.alias = nil }()
		}
		b.active[y.Alias] = true
		defer delete(b.active, y.Alias)
		return b.node(y.Alias)
	case yaml.ScalarNode:
		return b.scalar(y)
	case yaml.SequenceNode:
		n := &node{kind: yaml.SequenceNode, style: y.Style, src: b.src}
		for _, c := range y.Content {
			if cn := b.node(c); cn != nil {
				n.items = append(n.items, cn)
			}
		}
		n.rng = b.collectionRange(y, n.items)
		return n
	case yaml.MappingNode:
		return b.mapping(y)
	}
	return nil
}

func (b *builder) scalar(y *yaml.Node) *node {
	start := b.src.offset(y.Line, y.Column)
	n := &node{kind: yaml.ScalarNode, tag: y.ShortTag(), value: y.Value, style: y.Style, src: b.src, text: start}
	end := b.scalarEnd(start, y)
	if y.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		n.text = start + 1
	}
	if y.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		n.text = min(b.src.lineEnd(start)+1, len(b.src.bytes))
	}
	n.rng = b.src.rng(start, end)
	return n
}

// scalarEnd finds where a scalar's text ends.
func (b *builder) scalarEnd(start int, y *yaml.Node) int {
	src := b.src.bytes
	switch {
	case y.Style&yaml.DoubleQuotedStyle != 0:
		for i := start + 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
	case y.Style&yaml.SingleQuotedStyle != 0:
		for i := start + 1; i < len(src); i++ {
			if src[i] == '\'' {
				if i+1 < len(src) && src[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
	case y.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return b.blockEnd(start)
	default:
		if end := start + len(y.Value); end <= len(src) && string(src[start:end]) == y.Value {
			return start + len(y.Value)
		}
		return b.src.lineEnd(start)
	}
	return len(src)
}

// blockEnd finds the end of a block scalar whose header (| or >) is at
// start: its content lines are indented more than the header's line.
func (b *builder) blockEnd(start int) int {
	src := b.src.bytes
	header := b.src.pos(start).Line
	base := indentation(src[b.src.lines[header-1]:])
	end := b.src.lineEnd(start)
	for line := header + 1; line <= len(b.src.lines); line++ {
		text := src[b.src.lines[line-1]:b.src.lineEnd(b.src.lines[line-1])]
		if strings.TrimSpace(string(text)) == "" {
			continue
		}
		if indentation(text) <= base {
			break
		}
		end = b.src.lineEnd(b.src.lines[line-1])
	}
	return end
}

func indentation(line []byte) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	return n
}

// mapping converts a mapping, applying merge keys: the pairs of merged
// mappings are added where the << key is, unless the mapping (or an
// earlier merged mapping) has the key already.
func (b *builder) mapping(y *yaml.Node) *node {
	n := &node{kind: yaml.MappingNode, style: y.Style, src: b.src}
	explicit := map[string]*node{}
	keys := make([]*node, len(y.Content))
	for i := 0; i+1 < len(y.Content); i += 2 {
		if isMergeKey(y.Content[i]) {
			continue
		}
		k := b.node(y.Content[i])
		if k == nil {
			continue
		}
		if prev, dup := explicit[k.value]; dup {
			b.errorf(k.rng, "Duplicate key", "The key %q is also at %s:%d:%d; a mapping holds each key once.", k.value, prev.rng.Filename, prev.rng.Start.Line, prev.rng.Start.Column)
			continue
		}
		explicit[k.value] = k
		keys[i] = k
	}
	have := map[string]bool{}
	var ends []*node
	for i := 0; i+1 < len(y.Content); i += 2 {
		kn, vn := y.Content[i], y.Content[i+1]
		if isMergeKey(kn) {
			for _, p := range b.merged(vn) {
				if explicit[p.key.value] == nil && !have[p.key.value] {
					have[p.key.value] = true
					n.pairs = append(n.pairs, p)
				}
			}
			continue
		}
		k := keys[i]
		if k == nil {
			continue
		}
		v := b.node(vn)
		if v == nil {
			v = &node{kind: yaml.ScalarNode, tag: "!!null", src: b.src, rng: k.rng, text: k.rng.End.Byte}
		}
		have[k.value] = true
		n.pairs = append(n.pairs, pair{key: k, value: v})
		ends = append(ends, k, v)
	}
	n.rng = b.collectionRange(y, ends)
	return n
}

func isMergeKey(y *yaml.Node) bool { return y.Kind == yaml.ScalarNode && y.ShortTag() == "!!merge" }

// merged returns the pairs a merge key brings in: those of a mapping, or of
// each mapping of a sequence, earlier ones first.
func (b *builder) merged(y *yaml.Node) []pair {
	v := b.node(y)
	switch {
	case v == nil:
		return nil
	case v.kind == yaml.MappingNode:
		return v.pairs
	case v.kind == yaml.SequenceNode:
		var out []pair
		seen := map[string]bool{}
		for _, it := range v.items {
			if it.kind != yaml.MappingNode {
				b.errorf(it.rng, "Invalid merge", "A merge key (<<) takes a mapping or a list of mappings.")
				continue
			}
			for _, p := range it.pairs {
				if !seen[p.key.value] {
					seen[p.key.value] = true
					out = append(out, p)
				}
			}
		}
		return out
	}
	b.errorf(v.rng, "Invalid merge", "A merge key (<<) takes a mapping or a list of mappings.")
	return nil
}

// collectionRange is the range of a mapping or sequence: from its start to
// the end of its last child, or its closing bracket when written in flow
// style.
func (b *builder) collectionRange(y *yaml.Node, children []*node) hcl.Range {
	start := b.src.offset(y.Line, y.Column)
	end := start
	for _, c := range children {
		if c.src == b.src && c.rng.End.Byte > end {
			end = c.rng.End.Byte
		}
	}
	if y.Style&yaml.FlowStyle != 0 {
		closer := byte('}')
		if y.Kind == yaml.SequenceNode {
			closer = ']'
		}
		for i := end; i < len(b.src.bytes); i++ {
			if b.src.bytes[i] == closer {
				end = i + 1
				break
			}
			if !strings.ContainsRune(" \t\r\n,", rune(b.src.bytes[i])) {
				break
			}
		}
	}
	return b.src.rng(start, end)
}
