package state

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/cairn-iac/cairn/engine/resource"
)

// Signatures the state uses beyond those of package resource: for numbers
// JSON cannot hold (NaN, ±Inf) and for strings that are not UTF-8.
const (
	floatSig      = "8ad145fe-0d11-4827-bfd7-1abcbf086f5c"
	byteStringSig = "803fd3297a5875dc03ca845dda5d2a98"
)

// errNoSecretsManager is returned when a secret must be encrypted or
// decrypted and no secrets manager was given.
var errNoSecretsManager = errors.New("the stack holds secret values but no secrets manager was given; " +
	"set CAIRN_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE) so secrets can be encrypted")

// valueEncoder writes property values in the state's form: the anchor's
// signatures, unknowns as the unknown sentinel, outputs resolved, and each
// secret sealed as {sig, ciphertext} (or {sig, plaintext} when showing
// secrets) around the JSON text of its element.
type valueEncoder struct {
	encrypt     func(string) (string, error) // nil: a secret is an error unless showing secrets
	showSecrets bool
	byteStrings bool // some string needed the byte-string form
}

func (e *valueEncoder) options(seal func(resource.Value) (map[string]any, error)) resource.EncodeOptions {
	return resource.EncodeOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, EncryptSecret: seal}
}

// encodeMap encodes a property map; a nil map stays nil.
func (e *valueEncoder) encodeMap(m resource.Map) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	out, err := resource.EncodeMap(m, e.options(e.seal))
	if err != nil {
		return nil, err
	}
	e.escape(out)
	return out, nil
}

// encodeValue encodes one value; null encodes as nil.
func (e *valueEncoder) encodeValue(v resource.Value) (any, error) {
	out, err := resource.Encode(v, e.options(e.seal))
	if err != nil {
		return nil, err
	}
	return e.escape(out), nil
}

// seal encrypts a secret's element.
func (e *valueEncoder) seal(element resource.Value) (map[string]any, error) {
	text, err := e.secretText(element)
	if err != nil {
		return nil, err
	}
	if e.showSecrets {
		return map[string]any{resource.SigKey: resource.SecretSig, "plaintext": text}, nil
	}
	if e.encrypt == nil {
		return nil, errNoSecretsManager
	}
	ciphertext, err := e.encrypt(text)
	if err != nil {
		return nil, fmt.Errorf("encrypting a secret: %w", err)
	}
	return map[string]any{resource.SigKey: resource.SecretSig, "ciphertext": ciphertext}, nil
}

// mark writes a secret nested in another secret's element: it keeps its
// mark, but as the anchor does it is not encrypted again, its "ciphertext"
// being its JSON text.
func (e *valueEncoder) mark(element resource.Value) (map[string]any, error) {
	text, err := e.secretText(element)
	if err != nil {
		return nil, err
	}
	key := "ciphertext"
	if e.showSecrets {
		key = "plaintext"
	}
	return map[string]any{resource.SigKey: resource.SecretSig, key: text}, nil
}

// secretText is the JSON text a secret's element is sealed as.
func (e *valueEncoder) secretText(element resource.Value) (string, error) {
	inner, err := resource.Encode(element, e.options(e.mark))
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(e.escape(inner))
	if err != nil {
		return "", fmt.Errorf("encoding a secret: %w", err)
	}
	return string(data), nil
}

// escape rewrites, in place, the numbers and strings JSON cannot carry as
// signature objects, and returns x or its replacement.
func (e *valueEncoder) escape(x any) any {
	switch x := x.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return map[string]any{resource.SigKey: floatSig, "value": fmt.Sprintf("%016x", math.Float64bits(x))}
		}
	case string:
		if !utf8.ValidString(x) {
			e.byteStrings = true
			return map[string]any{resource.SigKey: byteStringSig, "value": base64.StdEncoding.EncodeToString([]byte(x))}
		}
	case []any:
		for i, v := range x {
			x[i] = e.escape(v)
		}
	case map[string]any:
		if _, special := x[resource.SigKey]; special {
			return x
		}
		for k, v := range x {
			x[k] = e.escape(v)
		}
	}
	return x
}

// valueDecoder reads property values written by valueEncoder (or by the
// anchor). It rewrites the JSON data it is given in place.
type valueDecoder struct {
	decrypt func(string) (string, error) // nil: a ciphertext is an error
	// nested is set inside a secret's element, whose own secrets were not
	// encrypted again.
	nested bool
}

func (d *valueDecoder) options() resource.DecodeOptions {
	return resource.DecodeOptions{DecryptSecret: d.open}
}

// decodeMap decodes a property map; an absent map decodes as an empty one.
func (d *valueDecoder) decodeMap(m map[string]any) (resource.Map, error) {
	if m == nil {
		return resource.Map{}, nil
	}
	for k, v := range m {
		x, err := unescape(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		m[k] = x
	}
	return resource.DecodeMap(m, d.options())
}

// decodeValue decodes one value.
func (d *valueDecoder) decodeValue(x any) (resource.Value, error) {
	x, err := unescape(x)
	if err != nil {
		return resource.Null, err
	}
	return resource.Decode(x, d.options())
}

// open decrypts a secret object and decodes its element.
func (d *valueDecoder) open(obj map[string]any) (resource.Value, error) {
	ciphertext, hasCiphertext := obj["ciphertext"].(string)
	plaintext, hasPlaintext := obj["plaintext"].(string)
	switch {
	case hasCiphertext == hasPlaintext:
		return resource.Null, errors.New("malformed secret: it must have exactly one of ciphertext and plaintext")
	case hasCiphertext && d.nested:
		plaintext = ciphertext
	case hasCiphertext && d.decrypt == nil:
		return resource.Null, errNoSecretsManager
	case hasCiphertext:
		var err error
		if plaintext, err = d.decrypt(ciphertext); err != nil {
			return resource.Null, err
		}
	}
	var element any
	if err := json.Unmarshal([]byte(plaintext), &element); err != nil {
		return resource.Null, fmt.Errorf("malformed secret: its text is not JSON: %w", err)
	}
	inner := valueDecoder{nested: true}
	return inner.decodeValue(element)
}

// unescape turns, in place, the float and byte-string signature objects
// back into numbers and strings, and returns x or its replacement.
func unescape(x any) (any, error) {
	switch x := x.(type) {
	case []any:
		for i, v := range x {
			u, err := unescape(v)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			x[i] = u
		}
	case map[string]any:
		switch x[resource.SigKey] {
		case nil:
			for k, v := range x {
				u, err := unescape(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", k, err)
				}
				x[k] = u
			}
		case floatSig:
			s, _ := x["value"].(string)
			bits, err := strconv.ParseUint(s, 16, 64)
			if err != nil {
				return nil, fmt.Errorf("malformed float value %q: want 16 hex digits", s)
			}
			return math.Float64frombits(bits), nil
		case byteStringSig:
			s, _ := x["value"].(string)
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return nil, fmt.Errorf("malformed byte string %q: want base64", s)
			}
			return string(b), nil
		}
	}
	return x, nil
}
