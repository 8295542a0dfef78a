package provider

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cairn-iac/cairn/engine/resource"
)

// ConfigStrings converts stack configuration ("<namespace>:<key>" → value)
// into the form language hosts and component providers receive: strings as
// they are, every other value as JSON, secrets in plain text with their keys
// listed (sorted) in the second result.
func ConfigStrings(cfg map[string]resource.Value) (map[string]string, []string, error) {
	out := make(map[string]string, len(cfg))
	var secretKeys []string
	for k, v := range cfg {
		if v.ContainsSecrets() {
			secretKeys = append(secretKeys, k)
		}
		v = v.Unsecret()
		if v.IsString() {
			out[k] = v.StringValue()
			continue
		}
		x, err := resource.Encode(v, resource.EncodeOptions{KeepResources: true})
		if err != nil {
			return nil, nil, fmt.Errorf("configuration %s: %w", k, err)
		}
		data, err := json.Marshal(x)
		if err != nil {
			return nil, nil, fmt.Errorf("configuration %s: %w", k, err)
		}
		out[k] = string(data)
	}
	sort.Strings(secretKeys)
	return out, secretKeys, nil
}
