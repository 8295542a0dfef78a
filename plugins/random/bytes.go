package random

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

func validateBytes(in resource.Map) []provider.CheckFailure { return atLeast(in, "length", 1, true) }

// generateBytes draws a RandomBytes. Its ID says nothing of the bytes.
func generateBytes(in resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	n, _ := props.Int(in, "length")
	b := make([]byte, n)
	_, _ = src.stream.Read(b)
	return bytesEncodings(b), src.opaqueID(), nil
}

func bytesEncodings(b []byte) resource.Map {
	return resource.Map{
		"base64": resource.String(base64.StdEncoding.EncodeToString(b)),
		"hex":    resource.String(hex.EncodeToString(b)),
	}
}

// importBytes imports a RandomBytes from its bytes in standard base64.
func importBytes(id string) (resource.ID, resource.Map, resource.Map, error) {
	b, err := base64.StdEncoding.DecodeString(id)
	if err != nil || len(b) == 0 {
		return "", nil, nil, fmt.Errorf("the ID must be the bytes in padded standard base64")
	}
	inputs := resource.Map{"length": resource.Number(float64(len(b)))}
	return newSource(nil).opaqueID(), inputs, bytesEncodings(b), nil
}
