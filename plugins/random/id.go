package random

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/internal/props"
)

func validateID(in resource.Map) []provider.CheckFailure { return atLeast(in, "byteLength", 1, true) }

// generateID draws a RandomId's bytes. Its ID is their base64url form,
// without the prefix.
func generateID(in resource.Map, src *source, _ bool) (resource.Map, resource.ID, error) {
	n, _ := props.Int(in, "byteLength")
	b := make([]byte, n)
	_, _ = src.stream.Read(b)
	prefix, _ := props.String(in, "prefix")
	return idEncodings(prefix, b), resource.ID(base64.RawURLEncoding.EncodeToString(b)), nil
}

// idEncodings returns a RandomId's outputs for its bytes.
func idEncodings(prefix string, b []byte) resource.Map {
	return resource.Map{
		"hex":    resource.String(prefix + hex.EncodeToString(b)),
		"b64Std": resource.String(prefix + base64.StdEncoding.EncodeToString(b)),
		"b64Url": resource.String(prefix + base64.RawURLEncoding.EncodeToString(b)),
		"dec":    resource.String(prefix + new(big.Int).SetBytes(b).String()),
	}
}

// importID imports a RandomId from "<b64Url>" or "<prefix>,<b64Url>" (the
// prefix ends at the last comma).
func importID(id string) (resource.ID, resource.Map, resource.Map, error) {
	prefix, encoded := "", id
	if i := strings.LastIndexByte(id, ','); i >= 0 {
		prefix, encoded = id[:i], id[i+1:]
	}
	b, err := base64.RawURLEncoding.DecodeString(encoded)
	if err != nil || len(b) == 0 {
		return "", nil, nil, fmt.Errorf("%q is not unpadded base64url; the ID is \"<b64Url>\" or \"<prefix>,<b64Url>\"", encoded)
	}
	inputs := resource.Map{"byteLength": resource.Number(float64(len(b)))}
	if prefix != "" {
		inputs["prefix"] = resource.String(prefix)
	}
	return resource.ID(encoded), inputs, idEncodings(prefix, b), nil
}
