package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
)

// keyName names the key of a secrets provider, by its type and state, as a
// secret's ciphertext records it (resource.Value.Ciphertext).
func keyName(typ string, state json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, state) != nil {
		b.Reset()
		b.Write(state)
	}
	return typ + "\x00" + b.String()
}

// errNoSecretsManager is returned when a secret must be encrypted or
// decrypted and no secrets manager was given.
var errNoSecretsManager = errors.New("the stack holds secret values but no secrets manager was given; " +
	"set CAIRN_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE) so secrets can be encrypted")

// valueEncoder writes property values in the state's form: Pulumi's
// signatures, unknowns as the unknown sentinel, outputs resolved, and each
// secret sealed as {sig, ciphertext} (or {sig, plaintext} when showing
// secrets) around the JSON text of its element.
type valueEncoder struct {
	encrypt     func(string) (string, error) // nil: a secret is an error unless showing secrets
	key         string                       // names encrypt's key (keyName)
	showSecrets bool
	byteStrings bool // some string needed the byte-string form
}

func (e *valueEncoder) options(seal func(resource.Value) (map[string]any, error)) resource.EncodeOptions {
	return resource.EncodeOptions{KeepUnknowns: true, KeepSecrets: true, KeepResources: true, EncryptSecret: seal,
		NonFinite: true, ByteStrings: func() { e.byteStrings = true }}
}

// encodeMap encodes a property map; a nil map stays nil.
func (e *valueEncoder) encodeMap(m resource.Map) (map[string]any, error) {
	if m == nil {
		return nil, nil
	}
	return resource.EncodeMap(m, e.options(e.seal))
}

// encodeValue encodes one value; null encodes as nil.
func (e *valueEncoder) encodeValue(v resource.Value) (any, error) {
	return resource.Encode(v, e.options(e.seal))
}

// seal encrypts a secret's element, or writes the ciphertext it was read
// from (or sealed as) when that is under the encoder's key: the same
// ciphertext, so that what was digested as it still matches.
func (e *valueEncoder) seal(secret resource.Value) (map[string]any, error) {
	if ciphertext, key, ok := secret.Ciphertext(); ok && key == e.key && key != "" && !e.showSecrets {
		return map[string]any{resource.SigKey: resource.SecretSig, "ciphertext": ciphertext}, nil
	}
	text, err := e.secretText(secret.SecretElement())
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
// mark, but as Pulumi does it is not encrypted again, its "ciphertext"
// being its JSON text.
func (e *valueEncoder) mark(secret resource.Value) (map[string]any, error) {
	text, err := e.secretText(secret.SecretElement())
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
	data, err := json.Marshal(inner)
	if err != nil {
		return "", fmt.Errorf("encoding a secret: %w", err)
	}
	return string(data), nil
}

// valueDecoder reads property values written by valueEncoder (or by
// Pulumi).
type valueDecoder struct {
	decrypt func(string) (string, error) // nil: a ciphertext is an error
	key     string                       // names decrypt's key (keyName)
	// lazy, when set, keeps each secret sealed until it is first read.
	lazy *secrets.Lazy
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
	return resource.DecodeMap(m, d.options())
}

// decodeValue decodes one value.
func (d *valueDecoder) decodeValue(x any) (resource.Value, error) {
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
	case hasCiphertext && d.lazy != nil:
		return resource.SealedSecret(ciphertext, d.key, func() resource.Value {
			v, err := d.decryptElement(ciphertext)
			if err != nil {
				d.lazy.Failed(err)
				return resource.Unknown()
			}
			if d.lazy.Learn != nil {
				resource.MakeSecret(v).SecretStrings(d.lazy.Learn)
			}
			return v
		}), nil
	case hasCiphertext:
		v, err := d.decryptElement(ciphertext)
		if err != nil {
			return resource.Null, err
		}
		return resource.SecretWithCiphertext(v, ciphertext, d.key), nil
	}
	return decodeElement(plaintext)
}

// decryptElement decrypts a secret's ciphertext and decodes its element.
func (d *valueDecoder) decryptElement(ciphertext string) (resource.Value, error) {
	plaintext, err := d.decrypt(ciphertext)
	if err != nil {
		return resource.Null, err
	}
	return decodeElement(plaintext)
}

// decodeElement decodes the JSON text of a secret's element.
func decodeElement(plaintext string) (resource.Value, error) {
	inner := &valueDecoder{nested: true}
	if v, err := decodeText(plaintext, inner); err == nil {
		return v, nil
	}
	var element any
	if err := json.Unmarshal([]byte(plaintext), &element); err != nil {
		return resource.Null, fmt.Errorf("malformed secret: its text is not JSON: %w", err)
	}
	return inner.decodeValue(element)
}
