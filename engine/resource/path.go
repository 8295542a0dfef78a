package resource

import (
	"fmt"
	"strconv"
	"strings"
)

// Path addresses a property inside an object: each element is a string (an
// object key), an int (an array index) or the wildcard "*" (any key or index).
// Written form: a.b[0]["c.d"], with [*] or .* for wildcards.
type Path []any

// Wildcard is the path element that matches any key or index.
const Wildcard = "*"

// ParsePath parses the written form of a path.
func ParsePath(s string) (Path, error) {
	if s == "" {
		return nil, fmt.Errorf("empty property path")
	}
	var p Path
	i := 0
	expectName := true
	for i < len(s) {
		switch c := s[i]; {
		case c == '[':
			j := strings.IndexByte(s[i:], ']')
			if j < 0 {
				return nil, fmt.Errorf("property path %q: missing ']'", s)
			}
			if i+1 < len(s) && s[i+1] == '"' {
				key, rest, err := unquotePrefix(s[i+1:])
				if err != nil || !strings.HasPrefix(rest, "]") {
					return nil, fmt.Errorf("property path %q: bad quoted key", s)
				}
				p = append(p, key)
				i = len(s) - len(rest) + 1
			} else {
				inner := s[i+1 : i+j]
				if inner == "*" {
					p = append(p, Wildcard)
				} else {
					n, err := strconv.Atoi(inner)
					if err != nil || n < 0 {
						return nil, fmt.Errorf("property path %q: index %q must be a non-negative integer, \"*\" or a quoted key", s, inner)
					}
					p = append(p, n)
				}
				i += j + 1
			}
			expectName = false
		case c == '.':
			if expectName {
				return nil, fmt.Errorf("property path %q: unexpected '.'", s)
			}
			i++
			expectName = true
			if i == len(s) {
				return nil, fmt.Errorf("property path %q: ends with '.'", s)
			}
		default:
			if !expectName {
				return nil, fmt.Errorf("property path %q: expected '.' or '[' at offset %d", s, i)
			}
			j := i
			for j < len(s) && s[j] != '.' && s[j] != '[' {
				j++
			}
			p = append(p, s[i:j])
			i = j
			expectName = false
		}
	}
	return p, nil
}

func unquotePrefix(s string) (string, string, error) {
	for j := 1; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] == '"' {
			key, err := strconv.Unquote(s[:j+1])
			return key, s[j+1:], err
		}
	}
	return "", "", fmt.Errorf("unterminated string")
}

// String renders p in its written form.
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		switch e := e.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		case string:
			switch {
			case e == Wildcard:
				b.WriteString("[*]")
			case isSimpleKey(e):
				if i > 0 {
					b.WriteByte('.')
				}
				b.WriteString(e)
			default:
				fmt.Fprintf(&b, "[%s]", strconv.Quote(e))
			}
		}
	}
	return b.String()
}

func isSimpleKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r == '.' || r == '[' || r == ']' || r == '"' || r == ' ' {
			return false
		}
	}
	return true
}

// HasWildcard reports whether p contains a wildcard.
func (p Path) HasWildcard() bool {
	for _, e := range p {
		if e == Wildcard {
			return true
		}
	}
	return false
}

// Matches reports whether the concrete path q is matched by p, where p may
// contain wildcards and must have the same length.
func (p Path) Matches(q Path) bool {
	if len(p) != len(q) {
		return false
	}
	return p.matchPrefix(q)
}

// Covers reports whether p (with wildcards) matches q or a prefix of q: a
// change at q lies under p.
func (p Path) Covers(q Path) bool {
	return len(p) <= len(q) && p.matchPrefix(q[:len(p)])
}

func (p Path) matchPrefix(q Path) bool {
	for i, e := range p {
		if e == Wildcard {
			continue
		}
		switch e := e.(type) {
		case int:
			if qi, ok := q[i].(int); !ok || qi != e {
				// Keys given as strings of digits match indices.
				if qs, ok := q[i].(string); !ok || qs != strconv.Itoa(e) {
					return false
				}
			}
		case string:
			switch qe := q[i].(type) {
			case string:
				if qe != e {
					return false
				}
			case int:
				if strconv.Itoa(qe) != e {
					return false
				}
			}
		}
	}
	return true
}

// Get returns the value at p in v and whether it exists. Wildcards are not
// allowed.
func (p Path) Get(v Value) (Value, bool) {
	for _, e := range p {
		if v.IsSecret() {
			v = v.SecretElement()
		}
		switch e := e.(type) {
		case int:
			if !v.IsArray() || e >= len(v.ArrayValue()) {
				return Null, false
			}
			v = v.ArrayValue()[e]
		case string:
			if !v.IsObject() {
				return Null, false
			}
			var ok bool
			if v, ok = v.ObjectValue()[e]; !ok {
				return Null, false
			}
		}
	}
	return v, true
}

// traversable checks that p does not step into a value that cannot hold
// properties (a string, number or bool) on its way through v. Missing values
// are fine.
func (p Path) traversable(v Value) error {
	for i, e := range p {
		if v.IsSecret() {
			v = v.SecretElement()
		}
		if v.IsNull() || v.IsUnknown() || e == Wildcard {
			return nil
		}
		var next Value
		var ok bool
		switch e := e.(type) {
		case int:
			if !v.IsArray() {
				return fmt.Errorf("%s is %s, not an array", p[:i], v.Kind())
			}
			if e < len(v.ArrayValue()) {
				next, ok = v.ArrayValue()[e], true
			}
		case string:
			if !v.IsObject() {
				return fmt.Errorf("%s is %s, not an object", p[:i], v.Kind())
			}
			next, ok = v.ObjectValue()[e]
		}
		if !ok {
			return nil
		}
		v = next
	}
	return nil
}

// Set returns a copy of root with the value at p replaced by x, creating
// intermediate objects and arrays as needed. It fails when an intermediate
// value has the wrong kind.
func (p Path) Set(root Value, x Value) (Value, error) {
	if len(p) == 0 {
		return x, nil
	}
	rest := p[1:]
	if root.IsSecret() {
		inner, err := p.Set(root.SecretElement(), x)
		return MakeSecret(inner), err
	}
	switch e := p[0].(type) {
	case int:
		var elems []Value
		switch {
		case root.IsNull():
		case root.IsArray():
			elems = append(elems, root.ArrayValue()...)
		default:
			return root, fmt.Errorf("cannot index %s with [%d]", root.Kind(), e)
		}
		for len(elems) <= e {
			elems = append(elems, Null)
		}
		child, err := rest.Set(elems[e], x)
		if err != nil {
			return root, err
		}
		elems[e] = child
		return Array(elems...), nil
	case string:
		var m Map
		switch {
		case root.IsNull():
			m = Map{}
		case root.IsObject():
			m = root.ObjectValue().Copy()
		default:
			return root, fmt.Errorf("cannot read property %q of %s", e, root.Kind())
		}
		child, err := rest.Set(m[e], x)
		if err != nil {
			return root, err
		}
		m[e] = child
		return Object(m), nil
	}
	return root, fmt.Errorf("bad path element %v", p[0])
}

// Delete returns a copy of root without the value at p.
func (p Path) Delete(root Value) Value {
	if len(p) == 0 {
		return Null
	}
	if root.IsSecret() {
		return MakeSecret(p.Delete(root.SecretElement()))
	}
	switch e := p[0].(type) {
	case int:
		if !root.IsArray() || e >= len(root.ArrayValue()) {
			return root
		}
		elems := append([]Value(nil), root.ArrayValue()...)
		if len(p) == 1 {
			return Array(append(elems[:e], elems[e+1:]...)...)
		}
		elems[e] = p[1:].Delete(elems[e])
		return Array(elems...)
	case string:
		if !root.IsObject() {
			return root
		}
		m := root.ObjectValue().Copy()
		if len(p) == 1 {
			delete(m, e)
		} else if c, ok := m[e]; ok {
			m[e] = p[1:].Delete(c)
		}
		return Object(m)
	}
	return root
}

// Expand returns the concrete paths in v that p matches (p itself when it has
// no wildcard and exists).
func (p Path) Expand(v Value) []Path {
	var out []Path
	var walk func(prefix Path, rest Path, v Value)
	walk = func(prefix Path, rest Path, v Value) {
		if len(rest) == 0 {
			out = append(out, append(Path(nil), prefix...))
			return
		}
		if v.IsSecret() {
			v = v.SecretElement()
		}
		switch e := rest[0]; {
		case e == Wildcard:
			switch {
			case v.IsArray():
				for i, c := range v.ArrayValue() {
					walk(append(prefix, i), rest[1:], c)
				}
			case v.IsObject():
				for _, k := range v.ObjectValue().SortedKeys() {
					walk(append(prefix, k), rest[1:], v.ObjectValue()[k])
				}
			}
		default:
			if c, ok := (Path{e}).Get(v); ok {
				walk(append(prefix, e), rest[1:], c)
			}
		}
	}
	walk(nil, p, v)
	return out
}
