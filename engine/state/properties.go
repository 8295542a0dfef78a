package state

import "github.com/cairn-iac/cairn/engine/resource"

// Properties encodes a property map as the state does, secrets encrypted
// with the encoder's secrets manager, for other files that hold engine
// values (saved plans).
func (e *Encoder) Properties(m resource.Map) (map[string]any, error) {
	return e.values().encodeMap(m)
}

// Properties decodes a property map written by Encoder.Properties with the
// decoder's secrets manager.
func (d *Decoder) Properties(m map[string]any) (resource.Map, error) {
	return d.values(nil).decodeMap(m)
}
