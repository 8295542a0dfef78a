package tftest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Config is what a test needs to know of the configuration it tests: the
// objects it declares, by their address (var.a, output.b, local.c,
// terraform_data.d, data.x.y, check.z, module.m), and the provider local
// names its blocks use.
type Config struct {
	Dir       string
	Files     map[string]*hcl.File
	Objects   map[string]*Object
	Providers map[string]bool
	// Types are the provider types of the local names required_providers
	// gives a source.
	Types map[string]string
	// Blocks are its provider blocks, by key (NAME, NAME.ALIAS).
	Blocks map[string]*hclsyntax.Block
	// Ext is the extension of its program files: .tf, or .hcl in an HCL
	// project.
	Ext string
}

// declaresProvider reports whether a provider block of the key (NAME or
// NAME.ALIAS) is in the configuration.
func (c *Config) declaresProvider(key string) bool { return c.Blocks[key] != nil }

// providerType is the type of the provider of a local name: the one its
// source names, else the name.
func (c *Config) providerType(name string) string {
	if t := c.Types[name]; t != "" {
		return t
	}
	return name
}

// Object is a block (or a local value) of the configuration.
type Object struct {
	Address string
	Range   hcl.Range      // the whole block
	Value   hcl.Expression // an output's value, a local's expression
	// Provider is the provider configuration (NAME, NAME.ALIAS) a
	// resource or data source uses.
	Provider string
	// Source and Args are a module call's source, when a constant
	// string, and the names of the arguments it passes; Providers, the
	// provider configurations it passes, by the module's key.
	Source    string
	Args      []string
	Providers map[string]string
}

// LoadConfig reads the .tf (and .tofu) files of dir, or the *.hcl files
// of an HCL project. Errors in them are
// left to the run to report: a test of a broken configuration fails its
// first run, as in tofu test.
func LoadConfig(dir string) (*Config, error) {
	c := &Config{Dir: dir, Files: map[string]*hcl.File{}, Objects: map[string]*Object{}, Providers: map[string]bool{}, Types: map[string]string{}, Blocks: map[string]*hclsyntax.Block{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	// A folder without .tf files is an HCL project: its *.hcl files.
	tf := false
	for _, e := range entries {
		tf = tf || strings.HasSuffix(e.Name(), ".tf") || strings.HasSuffix(e.Name(), ".tofu")
	}
	c.Ext = ".tf"
	if !tf {
		c.Ext = ".hcl"
	}
	for _, e := range entries {
		name := e.Name()
		program := strings.HasSuffix(name, ".tf") || strings.HasSuffix(name, ".tofu")
		if !tf {
			program = strings.HasSuffix(name, ".hcl") && !IsTestFile(name)
		}
		if e.IsDir() || strings.HasPrefix(name, ".") || !program {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		f, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
		if diags.HasErrors() {
			continue
		}
		c.Files[name] = f
		c.read(f.Body.(*hclsyntax.Body))
	}
	return c, nil
}

func (c *Config) read(body *hclsyntax.Body) {
	for _, b := range body.Blocks {
		add := func(addr string, value hcl.Expression) *Object {
			o := &Object{Address: addr, Range: b.Range(), Value: value}
			c.Objects[addr] = o
			return o
		}
		switch {
		case b.Type == "variable" && len(b.Labels) == 1:
			add("var."+b.Labels[0], nil)
		case b.Type == "output" && len(b.Labels) == 1:
			var v hcl.Expression
			if a := b.Body.Attributes["value"]; a != nil {
				v = a.Expr
			}
			add("output."+b.Labels[0], v)
		case b.Type == "locals":
			for name, a := range b.Body.Attributes {
				c.Objects["local."+name] = &Object{Address: "local." + name, Range: a.SrcRange, Value: a.Expr}
			}
		case (b.Type == "resource" || b.Type == "ephemeral") && len(b.Labels) == 2:
			add(b.Labels[0]+"."+b.Labels[1], nil).Provider = c.provider(b)
		case b.Type == "data" && len(b.Labels) == 2:
			add("data."+b.Labels[0]+"."+b.Labels[1], nil).Provider = c.provider(b)
		case b.Type == "check" && len(b.Labels) == 1:
			add("check."+b.Labels[0], nil)
			c.read(b.Body)
		case b.Type == "module" && len(b.Labels) == 1:
			o := add("module."+b.Labels[0], nil)
			for name, a := range b.Body.Attributes {
				switch name {
				case "source":
					if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String && !v.IsNull() {
						o.Source = v.AsString()
					}
				case "providers":
					o.Providers = providerMap(a.Expr)
				case "version", "count", "for_each", "depends_on":
				default:
					o.Args = append(o.Args, name)
				}
			}
			sort.Strings(o.Args)
		case b.Type == "provider" && len(b.Labels) == 1:
			c.Providers[b.Labels[0]] = true
			key := b.Labels[0]
			if a := b.Body.Attributes["alias"]; a != nil {
				if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type() == cty.String && !v.IsNull() {
					key += "." + v.AsString()
				}
			}
			c.Blocks[key] = b
		case b.Type == "terraform":
			for _, rp := range b.Body.Blocks {
				if rp.Type == "required_providers" {
					for name, a := range rp.Body.Attributes {
						c.Providers[name] = true
						v, d := a.Expr.Value(nil)
						if !d.HasErrors() && v.Type().IsObjectType() && v.Type().HasAttribute("source") {
							if src := v.GetAttr("source"); src.Type() == cty.String && src.IsKnown() && !src.IsNull() {
								c.Types[name] = src.AsString()[strings.LastIndex(src.AsString(), "/")+1:]
							}
						}
					}
				}
			}
		}
	}
}

// provider records the local name of the provider a resource block
// uses, and returns its configuration's key: NAME or NAME.ALIAS.
func (c *Config) provider(b *hclsyntax.Block) string {
	if a := b.Body.Attributes["provider"]; a != nil {
		if tr, d := hcl.AbsTraversalForExpr(a.Expr); !d.HasErrors() {
			c.Providers[tr.RootName()] = true
			return traversalKey(tr)
		}
	}
	name := strings.SplitN(b.Labels[0], "_", 2)[0]
	c.Providers[name] = true
	return name
}

// providerMap reads a module call's providers argument: { aws = aws.west },
// by key (NAME, NAME.ALIAS).
func providerMap(e hcl.Expression) map[string]string {
	pairs, _ := hcl.ExprMap(e)
	out := map[string]string{}
	for _, p := range pairs {
		k, d := hcl.AbsTraversalForExpr(p.Key)
		v, d2 := hcl.AbsTraversalForExpr(p.Value)
		if !d.HasErrors() && !d2.HasErrors() {
			out[traversalKey(k)] = traversalKey(v)
		}
	}
	return out
}

// traversalKey is the key of the provider configuration a reference
// names: NAME or NAME.ALIAS.
func traversalKey(tr hcl.Traversal) string {
	if len(tr) > 1 {
		if a, ok := tr[1].(hcl.TraverseAttr); ok {
			return tr.RootName() + "." + a.Name
		}
	}
	return tr.RootName()
}

// configurationOf returns the key of the root module's provider
// configuration that the resource or data source at addr (TYPE.NAME,
// data.TYPE.NAME, module.M.TYPE.NAME) uses, "" when the configuration
// does not tell: a module that is not a folder of it.
func (c *Config) configurationOf(addr string) string {
	if o := c.Objects[addr]; o != nil {
		return o.Provider
	}
	parts := strings.SplitN(addr, ".", 3)
	call := c.Objects["module."+parts[1]]
	if len(parts) < 3 || parts[0] != "module" || call == nil || !isLocal(call.Source) {
		return ""
	}
	mc, err := LoadConfig(filepath.Join(c.Dir, call.Source))
	if err != nil || mc.Objects[parts[2]] == nil {
		return ""
	}
	inner := mc.Objects[parts[2]].Provider
	if outer := call.Providers[inner]; outer != "" {
		return outer
	}
	return inner
}

// isLocal reports whether a module source is a folder: ./NAME, ../NAME.
func isLocal(source string) bool {
	return strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../")
}

// At names the object whose block holds the position file:line:col.
func (c *Config) At(file string, line, col int) string {
	best, size := "", -1
	for addr, o := range c.Objects {
		r := o.Range
		if r.Filename != file || line < r.Start.Line || line > r.End.Line ||
			(line == r.Start.Line && col < r.Start.Column) || (line == r.End.Line && col > r.End.Column) {
			continue
		}
		if n := r.End.Byte - r.Start.Byte; size < 0 || n < size {
			best, size = addr, n
		}
	}
	return best
}

// Address is the configuration address a reference of a test file
// names: var.a, output.b, terraform_data.c, data.x.y, check.z, module.m;
// "" when it names no object (an attribute of it may follow).
func Address(tr hcl.Traversal) string {
	parts := []string{tr.RootName()}
	want := 2
	if tr.RootName() == "data" {
		want = 3
	}
	for _, step := range tr[1:] {
		if len(parts) == want {
			break
		}
		a, ok := step.(hcl.TraverseAttr)
		if !ok {
			break
		}
		parts = append(parts, a.Name)
	}
	if len(parts) < want {
		return ""
	}
	return strings.Join(parts, ".")
}

// suggest names the objects of kind (the address's first part) that the
// configuration declares, for an error about one it does not.
func (c *Config) suggest(addr string) string {
	kind := strings.SplitN(addr, ".", 2)[0]
	var names []string
	for a := range c.Objects {
		if strings.SplitN(a, ".", 2)[0] == kind {
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	if len(names) > 8 {
		names = append(names[:8], "…")
	}
	return fmt.Sprintf(" It declares %s.", strings.Join(names, ", "))
}
