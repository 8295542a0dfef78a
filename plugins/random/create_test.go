package random

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// create checks news with the seed and creates the resource from the checked
// inputs.
func create(t *testing.T, typ string, news map[string]any, seed byte, preview bool) provider.CreateResponse {
	t.Helper()
	c := check(t, typ, nil, news, seed)
	if len(c.Failures) > 0 {
		t.Fatalf("check failures: %v", c.Failures)
	}
	resp, err := New().Create(context.Background(), provider.CreateRequest{Type: tok(typ), Inputs: c.Inputs, Preview: preview})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return resp
}

// str returns output k, read through a secret.
func str(m resource.Map, k string) string {
	v := m[k]
	if v.IsSecret() {
		v = v.SecretElement()
	}
	if !v.IsString() {
		return "<" + v.Kind().String() + ">"
	}
	return v.StringValue()
}

func count(s string, f func(rune) bool) int {
	n := 0
	for _, r := range s {
		if f(r) {
			n++
		}
	}
	return n
}

func isSpecial(r rune) bool { return strings.ContainsRune(defaultSpecial, r) }

func TestCreateString(t *testing.T) {
	tests := []struct {
		name string
		news map[string]any
		ok   func(s string) bool
	}{
		{"mins", map[string]any{"length": 12, "minUpper": 3, "minNumeric": 4, "minSpecial": 2, "lower": false},
			func(s string) bool {
				return count(s, unicode.IsUpper) >= 3 && count(s, unicode.IsDigit) >= 4 && count(s, isSpecial) >= 2 && count(s, unicode.IsLower) == 0
			}},
		{"only digits", map[string]any{"length": 30, "upper": false, "lower": false, "special": false},
			func(s string) bool { return count(s, unicode.IsDigit) == 30 }},
		{"number off", map[string]any{"length": 40, "number": false, "special": false},
			func(s string) bool { return count(s, unicode.IsDigit) == 0 }},
		{"override special", map[string]any{"length": 20, "upper": false, "lower": false, "numeric": false, "overrideSpecial": "é~"},
			func(s string) bool { return count(s, func(r rune) bool { return r == 'é' || r == '~' }) == 20 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for seed := byte(0); seed < 20; seed++ {
				resp := create(t, "RandomString", tt.news, seed, false)
				s := str(resp.Outputs, "result")
				if n := len([]rune(s)); n != int(tt.news["length"].(int)) || !tt.ok(s) {
					t.Fatalf("seed %d: result %q (%d characters) does not fit %v", seed, s, n, tt.news)
				}
				if resp.ID != resource.ID(s) {
					t.Errorf("ID %q, want the result", resp.ID)
				}
				if resp.Outputs["result"].IsSecret() {
					t.Errorf("a RandomString result is secret")
				}
			}
		})
	}
}

func TestCreatePassword(t *testing.T) {
	resp := create(t, "RandomPassword", map[string]any{"length": 16}, 1, false)
	for _, k := range []string{"result", "bcryptHash"} {
		if !resp.Outputs[k].IsSecret() {
			t.Errorf("%s is not secret", k)
		}
	}
	pw := str(resp.Outputs, "result")
	if err := bcrypt.CompareHashAndPassword([]byte(str(resp.Outputs, "bcryptHash")), []byte(pw)); err != nil {
		t.Errorf("bcryptHash does not match the result: %v", err)
	}
	if strings.Contains(string(resp.ID), pw) || resp.ID == "" {
		t.Errorf("ID %q", resp.ID)
	}
	if _, ok := resp.Outputs[seedKey]; ok {
		t.Errorf("the seed is an output")
	}
	// A password longer than bcrypt takes is hashed by its first 72 bytes.
	long := create(t, "RandomPassword", map[string]any{"length": 100}, 1, false)
	prefix := str(long.Outputs, "result")[:bcryptLimit]
	if err := bcrypt.CompareHashAndPassword([]byte(str(long.Outputs, "bcryptHash")), []byte(prefix)); err != nil {
		t.Errorf("the hash of a long password is not that of its first 72 bytes: %v", err)
	}
}

func TestCreateEncodings(t *testing.T) {
	id := create(t, "RandomId", map[string]any{"byteLength": 9, "prefix": "p-"}, 1, false)
	raw, err := hex.DecodeString(strings.TrimPrefix(str(id.Outputs, "hex"), "p-"))
	if err != nil || len(raw) != 9 {
		t.Fatalf("hex %q: %v", str(id.Outputs, "hex"), err)
	}
	want := map[string]string{
		"b64Std": "p-" + base64.StdEncoding.EncodeToString(raw),
		"b64Url": "p-" + base64.RawURLEncoding.EncodeToString(raw),
		"dec":    "p-" + new(big.Int).SetBytes(raw).String(),
	}
	for k, w := range want {
		if got := str(id.Outputs, k); got != w {
			t.Errorf("%s = %q, want %q", k, got, w)
		}
	}
	if id.ID != resource.ID(base64.RawURLEncoding.EncodeToString(raw)) {
		t.Errorf("ID %q, want the b64Url without prefix", id.ID)
	}

	b := create(t, "RandomBytes", map[string]any{"length": 5}, 1, false)
	for _, k := range []string{"base64", "hex"} {
		if !b.Outputs[k].IsSecret() {
			t.Errorf("RandomBytes %s is not secret", k)
		}
	}
	raw, _ = base64.StdEncoding.DecodeString(str(b.Outputs, "base64"))
	if len(raw) != 5 || hex.EncodeToString(raw) != str(b.Outputs, "hex") {
		t.Errorf("base64 %q and hex %q disagree", str(b.Outputs, "base64"), str(b.Outputs, "hex"))
	}
	if strings.Contains(str(b.Outputs, "base64"), string(b.ID)) {
		t.Errorf("the ID %q reveals the bytes", b.ID)
	}
}

func TestCreateInteger(t *testing.T) {
	seen := map[float64]bool{}
	for seed := byte(0); seed < 40; seed++ {
		resp := create(t, "RandomInteger", map[string]any{"min": -2, "max": 2}, seed, false)
		n := resp.Outputs["result"].NumberValue()
		if n < -2 || n > 2 || string(resp.ID) != resource.FormatNumber(n) {
			t.Fatalf("result %v, ID %q", n, resp.ID)
		}
		seen[n] = true
	}
	if len(seen) != 5 {
		t.Errorf("40 draws from -2..2 gave only %v", seen)
	}
	// With a seed input, the result depends on that seed alone.
	a := create(t, "RandomInteger", map[string]any{"min": 1, "max": 1000000, "seed": "fixed"}, 1, false)
	b := create(t, "RandomInteger", map[string]any{"min": 1, "max": 1000000, "seed": "fixed"}, 2, false)
	if !a.Outputs["result"].Equal(b.Outputs["result"]) {
		t.Errorf("seeded results differ: %v and %v", a.Outputs["result"], b.Outputs["result"])
	}
}

func TestCreateUUIDs(t *testing.T) {
	tests := []struct {
		typ     string
		version uuid.Version
	}{{"RandomUuid", 4}, {"RandomUuid4", 4}, {"RandomUuid7", 7}}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			resp := create(t, tt.typ, map[string]any{}, 1, false)
			u, err := uuid.Parse(str(resp.Outputs, "result"))
			if err != nil || u.Version() != tt.version || resp.ID != resource.ID(u.String()) {
				t.Errorf("result %v (%v), version %v, ID %q", resp.Outputs["result"], err, u.Version(), resp.ID)
			}
		})
	}
}

func TestCreatePet(t *testing.T) {
	tests := []struct {
		news  map[string]any
		words int
		sep   string
	}{
		{map[string]any{}, 2, "-"},
		{map[string]any{"length": 1}, 1, "-"},
		{map[string]any{"length": 4, "separator": "."}, 4, "."},
		{map[string]any{"length": 3, "prefix": "dev"}, 4, "-"},
	}
	for _, tt := range tests {
		resp := create(t, "RandomPet", tt.news, 1, false)
		words := strings.Split(string(resp.ID), tt.sep)
		if len(words) != tt.words || !slices.Contains(animals, words[len(words)-1]) {
			t.Errorf("%v: name %q", tt.news, resp.ID)
		}
		if tt.words >= 3 && !slices.Contains(adverbs, words[len(words)-3]) && tt.news["prefix"] == nil {
			t.Errorf("%v: %q does not start with an adverb", tt.news, resp.ID)
		}
		if p, ok := tt.news["prefix"]; ok && words[0] != p {
			t.Errorf("%v: %q does not start with the prefix", tt.news, resp.ID)
		}
	}
}

func TestCreateShuffle(t *testing.T) {
	in := []any{"a", "b", "c", "d"}
	tests := []struct {
		news map[string]any
		want int
	}{
		{map[string]any{"inputs": in}, 4},
		{map[string]any{"inputs": in, "resultCount": 2}, 2},
		{map[string]any{"inputs": in, "resultCount": 10}, 10},
		{map[string]any{"inputs": in, "resultCount": 0}, 0},
		{map[string]any{"inputs": []any{}}, 0},
	}
	for _, tt := range tests {
		resp := create(t, "RandomShuffle", tt.news, 1, false)
		got := resp.Outputs["results"].ArrayValue()
		if len(got) != tt.want {
			t.Fatalf("%v: %d results, want %d", tt.news, len(got), tt.want)
		}
		// Each whole pass over the inputs is a permutation of them.
		for start := 0; start+len(in) <= len(got); start += len(in) {
			seen := map[string]bool{}
			for _, v := range got[start : start+len(in)] {
				seen[v.StringValue()] = true
			}
			if len(seen) != len(in) {
				t.Errorf("%v: pass at %d is not a permutation: %v", tt.news, start, resource.Array(got...))
			}
		}
	}
	a := create(t, "RandomShuffle", map[string]any{"inputs": in, "seed": "s"}, 1, false)
	b := create(t, "RandomShuffle", map[string]any{"inputs": in, "seed": "s"}, 2, false)
	if !a.Outputs["results"].Equal(b.Outputs["results"]) {
		t.Errorf("seeded shuffles differ: %v and %v", a.Outputs["results"], b.Outputs["results"])
	}
}

// The same seed gives the same values, another seed others; a preview shows
// the values the update creates, but for what cannot be known beforehand.
func TestDeterminism(t *testing.T) {
	tests := []struct {
		typ       string
		news      map[string]any
		unknownAt string // output a preview cannot know
	}{
		{"RandomString", map[string]any{"length": 16}, ""},
		{"RandomPassword", map[string]any{"length": 16}, "bcryptHash"},
		{"RandomId", map[string]any{"byteLength": 8}, ""},
		{"RandomInteger", map[string]any{"min": 0, "max": 1 << 40}, ""},
		{"RandomBytes", map[string]any{"length": 16}, ""},
		{"RandomUuid", map[string]any{}, ""},
		{"RandomUuid4", map[string]any{}, ""},
		{"RandomPet", map[string]any{"length": 4}, ""},
		{"RandomShuffle", map[string]any{"inputs": []any{"a", "b", "c", "d", "e", "f", "g", "h"}}, ""},
		{"RandomUuid7", map[string]any{}, "result"},
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			first := create(t, tt.typ, tt.news, 7, false)
			preview := create(t, tt.typ, tt.news, 7, true)
			other := create(t, tt.typ, tt.news, 8, false)
			for k, v := range first.Outputs {
				switch {
				case k == tt.unknownAt:
					if !preview.Outputs[k].ContainsUnknowns() {
						t.Errorf("preview knows %s: %v", k, preview.Outputs[k])
					}
				case !preview.Outputs[k].Equal(v):
					t.Errorf("%s: preview %v, update %v", k, preview.Outputs[k], v)
				}
			}
			if tt.unknownAt == "" && preview.ID != first.ID {
				t.Errorf("preview ID %q, update ID %q", preview.ID, first.ID)
			}
			if tt.unknownAt != "result" { // a UUIDv7 holds the time of creation
				again := create(t, tt.typ, tt.news, 7, false)
				delete(again.Outputs, tt.unknownAt)
				delete(first.Outputs, tt.unknownAt)
				if again.ID != first.ID || !resource.Object(again.Outputs).Equal(resource.Object(first.Outputs)) {
					t.Errorf("the same seed gave %v then %v", resource.Object(first.Outputs), resource.Object(again.Outputs))
				}
			}
			if other.ID == first.ID {
				t.Errorf("seeds 7 and 8 gave the same ID %q", first.ID)
			}
		})
	}
}

// While an input is unknown, a preview leaves the generated outputs unknown.
func TestCreatePreviewUnknownInput(t *testing.T) {
	c := check(t, "RandomPassword", nil, map[string]any{"length": resource.Unknown()}, 1)
	resp, err := New().Create(context.Background(), provider.CreateRequest{Type: tok("RandomPassword"), Inputs: c.Inputs, Preview: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"result", "bcryptHash"} {
		if v := resp.Outputs[k]; !v.IsSecret() || !v.SecretElement().IsUnknown() {
			t.Errorf("%s = %v, want a secret unknown", k, v)
		}
	}
	if !resp.Outputs["upper"].Equal(resource.Bool(true)) {
		t.Errorf("known inputs are not outputs: %v", resource.Object(resp.Outputs))
	}
}
