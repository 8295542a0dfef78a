package yaml

import yaml "go.yaml.in/yaml/v4"

// unsupported warns of the project keys of Pulumi YAML that Cairn accepts
// but does not act on, so that a program relying on them is not run as if
// they held.
func (p *parser) unsupported(sections, keys map[string]*node) {
	if k := field(sections["pulumi"], "requiredVersion"); k != nil {
		p.warnf(k.rng, "Not supported", "pulumi.requiredVersion is not checked: Cairn has no Pulumi CLI version to compare with the range; remove it, or check the version outside the program.")
	}
	if k := field(field(sections["runtime"], "options"), "compiler"); k != nil {
		p.warnf(k.rng, "Not supported", "runtime.options.compiler is not run: Cairn reads the program from the YAML files; write the compiler's output to Main.yaml and remove the option.")
	}
	if k := keys["components"]; k != nil {
		p.warnf(k.rng, "Not supported", "components are not served: Cairn does not run a YAML program as a component provider for other programs; the section is ignored.")
	}
}

// field returns the value of the key name of a mapping, or nil, so that
// field(field(m, "a"), "b") reads m.a.b.
func field(m *node, name string) *node {
	if m == nil || m.kind != yaml.MappingNode {
		return nil
	}
	for _, kv := range m.pairs {
		if kv.key.value == name {
			return kv.value
		}
	}
	return nil
}
