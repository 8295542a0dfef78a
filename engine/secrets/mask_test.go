package secrets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestMasker(t *testing.T) {
	m := NewMasker("hunter2", "<7g[d\"pw", "abc", "multi\nline secret\n  second line")
	tests := []struct {
		text, want string
	}{
		{"", ""},
		{"no secrets here", "no secrets here"},
		{"pw=hunter2 db=hunter2", "pw=[secret] db=[secret]"},
		{"hunter2hunter2", "[secret]"}, // adjacent: one span
		{"abc is too short to mask", "abc is too short to mask"},
		{`{"v":"\u003c7g[d\"pw"}`, `{"v":"[secret]"}`}, // JSON with HTML escaping
		{`{"v":"<7g[d\"pw"}`, `{"v":"[secret]"}`},      // JSON without it
		{"raw <7g[d\"pw", "raw [secret]"},
		{"error:\n    line secret\n    second line", "error:\n    [secret]\n    [secret]"},
		{"hunter", "hunter"},
	}
	for _, tt := range tests {
		if got := m.Mask(tt.text); got != tt.want {
			t.Errorf("Mask(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
	if got := m.Mask(strconv.Quote("a \"<7g[d\"pw\" b")); got != `"a \"[secret]\" b"` {
		t.Errorf("Mask(Go-quoted) = %s", got)
	}
}

func TestMaskerOverlap(t *testing.T) {
	m := NewMasker("abcdef", "defghi", "abcd")
	for text, want := range map[string]string{
		"xabcdefghiy": "x[secret]y", // overlapping secrets are one span
		"xabcdy":      "x[secret]y",
		"abcdefabc":   "[secret]abc",
	} {
		if got := m.Mask(text); got != want {
			t.Errorf("Mask(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestMaskerNil(t *testing.T) {
	var m *Masker
	m.Add("hunter2")
	if got := m.Mask("hunter2"); got != "hunter2" {
		t.Errorf("nil Mask = %q", got)
	}
	var b bytes.Buffer
	fmt.Fprint(m.Writer(&b), "hunter2")
	if b.String() != "hunter2" {
		t.Errorf("nil Writer wrote %q", b.String())
	}
}

func TestMaskerWriter(t *testing.T) {
	m := NewMasker("hunter2")
	var b bytes.Buffer
	w := m.Writer(&b)
	n, err := fmt.Fprint(w, "token hunter2\n")
	if err != nil || n != len("token hunter2\n") || b.String() != "token [secret]\n" {
		t.Errorf("Writer wrote %q (%d, %v)", b.String(), n, err)
	}
	enc := json.NewEncoder(m.Writer(&b))
	b.Reset()
	_ = enc.Encode(map[string]string{"t": "hunter2"})
	if b.String() != `{"t":"[secret]"}`+"\n" {
		t.Errorf("JSON through Writer = %q", b.String())
	}
}

// TestMaskerConcurrent adds and masks at once; run with -race.
func TestMaskerConcurrent(t *testing.T) {
	m := NewMasker()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		secret := fmt.Sprintf("secret-%d", i)
		go func() { defer wg.Done(); m.Add(secret) }()
		go func() { defer wg.Done(); _ = m.Mask("text with secret-1 and secret-2") }()
	}
	wg.Wait()
	if got := m.Mask("secret-3 secret-7"); got != "[secret] [secret]" {
		t.Errorf("Mask after concurrent adds = %q", got)
	}
}

// BenchmarkMask masks a 1 MiB text (a large --json document) with 1,000
// known secrets, none of which it holds.
func BenchmarkMask(b *testing.B) {
	m := NewMasker()
	for i := range 1000 {
		m.Add(fmt.Sprintf("password-%04d-xyz", i))
	}
	text := strings.Repeat(`{"urn": "urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet-0001"}`+"\n", 1<<20/76)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = m.Mask(text)
	}
}
