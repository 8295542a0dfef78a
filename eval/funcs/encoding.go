package funcs

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/ianaindex"
)

// Base64EncodeFunc encodes the UTF-8 bytes of a string in Base64.
var Base64EncodeFunc = stringFunc("Encodes the UTF-8 bytes of a string in standard Base64.", "str", func(s string) (string, error) {
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
})

// Base64DecodeFunc decodes standard Base64 into a string; the decoded bytes
// must be UTF-8 text.
var Base64DecodeFunc = stringFunc("Decodes standard Base64 whose contents are UTF-8 text.", "str", func(s string) (string, error) {
	data, err := decodeBase64(s)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(data) {
		return "", errors.New("the decoded bytes are not valid UTF-8 text; for text in another encoding use textdecodebase64")
	}
	return string(data), nil
})

// Base64GzipFunc compresses a string with gzip and encodes the result in
// Base64. The stream is flushed before it is closed, as Terraform's is, so
// that the result is byte for byte Terraform's.
var Base64GzipFunc = stringFunc("Compresses a string with gzip and encodes the result in standard Base64.", "str", func(s string) (string, error) {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(s)); err != nil {
		return "", err
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes()), nil
})

// Base64GunzipFunc decodes Base64, decompresses the bytes with gzip and
// returns them as a string: the inverse of base64gzip.
var Base64GunzipFunc = stringFunc("Decodes standard Base64, decompresses the result with gzip and returns it as UTF-8 text.", "str", func(s string) (string, error) {
	data, err := decodeBase64(s)
	if err != nil {
		return "", err
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return "", fmt.Errorf("the decoded bytes are not gzip data: %w", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return "", fmt.Errorf("decompressing: %w", err)
	}
	if !utf8.Valid(out) {
		return "", errors.New("the decompressed bytes are not valid UTF-8 text")
	}
	return string(out), nil
})

// URLEncodeFunc escapes a string for use in a URL query: spaces become +
// and other reserved bytes %XX.
var URLEncodeFunc = stringFunc("Escapes a string for use in a URL query.", "str", func(s string) (string, error) {
	return url.QueryEscape(s), nil
})

// URLDecodeFunc reverses urlencode: + becomes a space and %XX the byte XX.
var URLDecodeFunc = stringFunc("Decodes a string escaped for a URL query: + is a space, %XX the byte XX.", "str", func(s string) (string, error) {
	out, err := url.QueryUnescape(s)
	if err != nil {
		return "", fmt.Errorf("cannot decode %q: %w", s, err)
	}
	return out, nil
})

// TextEncodeBase64Func encodes a string in a character encoding named by
// IANA (such as UTF-16LE or windows-1252) and the result in Base64.
var TextEncodeBase64Func = charsetFunc("Encodes a string in the named character encoding, then the bytes in standard Base64.", "string", func(s string, enc encoding.Encoding, name string) (string, error) {
	data, err := enc.NewEncoder().Bytes([]byte(s))
	if err != nil {
		return "", fmt.Errorf("the string has characters that %s cannot represent", name)
	}
	return base64.StdEncoding.EncodeToString(data), nil
})

// TextDecodeBase64Func decodes Base64 into bytes in a character encoding
// named by IANA and returns them as a string.
var TextDecodeBase64Func = charsetFunc("Decodes standard Base64 into bytes in the named character encoding, and returns them as a string.", "source", func(s string, enc encoding.Encoding, name string) (string, error) {
	data, err := decodeBase64(s)
	if err != nil {
		return "", err
	}
	text, err := enc.NewDecoder().Bytes(data)
	if err != nil || !utf8.Valid(text) {
		return "", fmt.Errorf("the decoded bytes are not valid %s", name)
	}
	return string(text), nil
})

// charsetFunc returns a function of a string and the IANA name of a
// character encoding, which convert turns into another string.
func charsetFunc(description, param string, convert func(s string, enc encoding.Encoding, name string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Description: description,
		Params: []function.Parameter{
			{Name: param, Type: cty.String},
			{Name: "encoding", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			name := args[1].AsString()
			enc, err := ianaEncoding(name)
			if err != nil {
				return cty.NilVal, function.NewArgError(1, err)
			}
			out, err := convert(args[0].AsString(), enc, name)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return cty.StringVal(out), nil
		},
	})
}

func decodeBase64(s string) ([]byte, error) {
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("the string is not valid standard Base64 (%w)", err)
	}
	return data, nil
}

// ianaEncoding returns the character encoding of an IANA name or alias.
func ianaEncoding(name string) (encoding.Encoding, error) {
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return nil, fmt.Errorf("%q is not a supported IANA character encoding name; try for example UTF-16LE, ISO-8859-1 or windows-1252", name)
	}
	return enc, nil
}
