package yaml

import (
	"strings"

	yaml "go.yaml.in/yaml/v4"
)

// Declaration renders a resource as Pulumi YAML declares it, for the user
// to add to the program after an import (as `pulumi import` prints it): its
// type, its inputs as properties (plain Go values, JSON-like) and, if
// protect, the protect option.
func Declaration(name, typ string, inputs map[string]any, protect bool) (string, error) {
	res := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v any) error {
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return err
		}
		res.Content = append(res.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &n)
		return nil
	}
	if err := add("type", typ); err != nil {
		return "", err
	}
	if len(inputs) > 0 {
		if err := add("properties", inputs); err != nil {
			return "", err
		}
	}
	if protect {
		if err := add("options", map[string]any{"protect": true}); err != nil {
			return "", err
		}
	}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "resources"},
		{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: name}, res}},
	}}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return "", err
	}
	return b.String(), enc.Close()
}
