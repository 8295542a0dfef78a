package workspace

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v4"
)

// PackageSpec is an entry of Pulumi.yaml `packages:`: the package is served
// by the provider plugin Source at Version, parameterized with the
// command-line arguments Parameters. The short form is "source@version".
type PackageSpec struct {
	Source     string   `yaml:"source"`
	Version    string   `yaml:"version,omitempty"`
	Parameters []string `yaml:"parameters,omitempty"`
}

// UnmarshalYAML reads the object form or the "source[@version]" form.
func (s *PackageSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s.Source, s.Version, _ = strings.Cut(n.Value, "@")
		return nil
	}
	type plain PackageSpec
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	if s.Source == "" {
		return fmt.Errorf("line %d: a package needs a source: the provider plugin serving it", n.Line)
	}
	return nil
}

// AddPackage records in the project file at path that package name is
// served as spec says, replacing an entry of that name and keeping the rest
// of the file.
func AddPackage(path, name string, spec PackageSpec) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return LocateYAMLError(path, data, err)
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return fmt.Errorf("%s: the project file is not a YAML mapping", path)
	}
	var entry yaml.Node
	if err := entry.Encode(spec); err != nil {
		return err
	}
	packages := mapping(doc.Content[0], "packages")
	if v := lookup(packages, name); v != nil {
		*v = entry
	} else {
		packages.Content = append(packages.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: name}, &entry)
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return err
	}
	return os.WriteFile(path, out.Bytes(), 0o644)
}

// lookup returns the value of key in the mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// mapping returns the mapping under key in the mapping m, making it (in
// place of whatever else is there) when it is not one.
func mapping(m *yaml.Node, key string) *yaml.Node {
	if v := lookup(m, key); v != nil {
		if v.Kind != yaml.MappingNode {
			*v = yaml.Node{Kind: yaml.MappingNode}
		}
		return v
	}
	v := &yaml.Node{Kind: yaml.MappingNode}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	return v
}
