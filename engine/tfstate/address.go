package tfstate

import (
	"fmt"
	"strconv"
	"strings"
)

// Names. Cairn's HCL front end names an instance after its address in
// the configuration, module calls included and "module." left out: the
// instance null_resource.web[0] of module.a["x"].module.b is a["x"].b.web[0].

// ModuleName is the name Cairn gives a module path of a state
// (module.a["x"].module.b is a["x"].b; the root module, "", is "").
func ModuleName(path string) (string, error) {
	var parts []string
	rest := path
	for rest != "" {
		name, ok := strings.CutPrefix(rest, "module.")
		if !ok {
			return "", fmt.Errorf("%q is not a module path such as module.a or module.a[\"x\"].module.b", path)
		}
		end := strings.IndexAny(name, ".[")
		if end < 0 {
			end = len(name)
		}
		part := name[:end]
		rest = name[end:]
		if strings.HasPrefix(rest, "[") {
			key, after, err := indexKey(rest)
			if err != nil {
				return "", fmt.Errorf("module path %q: %w", path, err)
			}
			part, rest = part+"["+key+"]", after
		}
		if part == "" {
			return "", fmt.Errorf("%q is not a module path: a module call has no name", path)
		}
		parts = append(parts, part)
		rest = strings.TrimPrefix(rest, ".")
	}
	return strings.Join(parts, "."), nil
}

// indexKey reads an index at the start of s ([0] or ["a"]) and returns it
// as instance names write it, and what follows.
func indexKey(s string) (string, string, error) {
	if strings.HasPrefix(s, `["`) {
		for i := 2; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				if i+1 < len(s) && s[i+1] == ']' {
					k, err := strconv.Unquote(s[1 : i+1])
					if err != nil {
						return "", "", fmt.Errorf("bad key %s", s[1:i+1])
					}
					return quoteKey(k), s[i+2:], nil
				}
			}
		}
		return "", "", fmt.Errorf("unterminated key in %q", s)
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return "", "", fmt.Errorf("unterminated index in %q", s)
	}
	n, err := strconv.Atoi(s[1:end])
	if err != nil || n < 0 {
		return "", "", fmt.Errorf("bad index %q", s[1:end])
	}
	return strconv.Itoa(n), s[end+1:], nil
}

// quoteKey quotes a for_each key as instance names write it (as Cairn's
// evaluator does: backslashes and quotes escaped).
func quoteKey(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Key is the instance key of an instance as instance names write it: 0
// for a count index, "a" (quoted) for a for_each key, "" for none.
func (in *Instance) Key() (string, error) {
	switch k := in.IndexKey.(type) {
	case nil:
		return "", nil
	case string:
		return quoteKey(k), nil
	case float64:
		if k >= 0 && k == float64(int64(k)) {
			return strconv.FormatInt(int64(k), 10), nil
		}
	}
	return "", fmt.Errorf("the index key %v is neither a whole number nor a string", in.IndexKey)
}

// Address is the resource's address in the configuration, as a state's
// dependencies list them: null_resource.web, module.a.null_resource.web.
func (r *Resource) Address() string {
	addr := r.Type + "." + r.Name
	if r.Mode == "data" {
		addr = "data." + addr
	}
	if r.Module != "" {
		addr = r.Module + "." + addr
	}
	return addr
}

// InstanceName is the name Cairn gives an instance of the resource.
func (r *Resource) InstanceName(in *Instance) (string, error) {
	mod, err := ModuleName(r.Module)
	if err != nil {
		return "", err
	}
	key, err := in.Key()
	if err != nil {
		return "", fmt.Errorf("%s: %w", r.Address(), err)
	}
	name := r.Name
	if key != "" {
		name += "[" + key + "]"
	}
	if mod != "" {
		name = mod + "." + name
	}
	return name, nil
}
