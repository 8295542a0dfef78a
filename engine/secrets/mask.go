package secrets

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Masked is what a Masker writes in place of a secret.
const Masked = "[secret]"

// MinMaskedLength is the shortest secret, in characters, that a Masker
// blanks out of text. Shorter strings ("on", "dev", "yes") occur in ordinary
// output too often to be replaced without turning it into nonsense, and are
// too short to protect anything anyway.
const MinMaskedLength = 4

// Masker replaces the plaintexts of secrets in text with "[secret]": the
// run-wide filter through which a deployment's diagnostics, errors,
// display and history records pass. A secret is found as it is and in the
// escaped forms it takes inside JSON and Go-quoted strings (a log line);
// a secret of several lines is also masked line by line, because displays
// indent continuation lines. Methods may be called concurrently; the zero
// Masker and a nil *Masker mask nothing.
type Masker struct {
	mu sync.RWMutex
	// byPrefix holds the forms to mask by their first MinMaskedLength
	// bytes, longest first.
	byPrefix map[[MinMaskedLength]byte][]string
	// first marks the bytes a form begins with, to skip the others fast.
	first [256]bool
	seen  map[string]bool
}

// NewMasker returns a masker of the plaintexts.
func NewMasker(plaintexts ...string) *Masker {
	m := &Masker{}
	for _, p := range plaintexts {
		m.Add(p)
	}
	return m
}

// Add makes m mask plaintext from now on; a plaintext shorter than
// MinMaskedLength characters is ignored.
func (m *Masker) Add(plaintext string) {
	if m == nil || utf8.RuneCountInString(plaintext) < MinMaskedLength {
		return
	}
	m.mu.RLock()
	known := m.seen[plaintext]
	m.mu.RUnlock()
	if known {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.seen == nil {
		m.seen, m.byPrefix = map[string]bool{}, map[[MinMaskedLength]byte][]string{}
	}
	if m.seen[plaintext] {
		return
	}
	m.seen[plaintext] = true
	for _, f := range forms(plaintext) {
		m.addForm(f)
	}
	if strings.Contains(plaintext, "\n") {
		for _, line := range strings.Split(plaintext, "\n") {
			if line = strings.TrimSpace(line); utf8.RuneCountInString(line) >= MinMaskedLength {
				for _, f := range forms(line) {
					m.addForm(f)
				}
			}
		}
	}
}

// forms returns a plaintext as it is and as it appears escaped inside a
// JSON string (with and without HTML escaping) and a Go-quoted string.
func forms(plaintext string) []string {
	out := []string{plaintext}
	add := func(quoted string) {
		inner := quoted[1 : len(quoted)-1]
		for _, f := range out {
			if f == inner {
				return
			}
		}
		out = append(out, inner)
	}
	if b, err := json.Marshal(plaintext); err == nil {
		add(string(b))
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(plaintext) == nil {
		add(strings.TrimSuffix(b.String(), "\n"))
	}
	add(strconv.Quote(plaintext))
	return out
}

// addForm indexes one form, keeping each bucket longest first so that the
// longest secret at a position wins.
func (m *Masker) addForm(f string) {
	k := prefix(f)
	m.first[f[0]] = true
	bucket := m.byPrefix[k]
	for _, g := range bucket {
		if g == f {
			return
		}
	}
	i := 0
	for i < len(bucket) && len(bucket[i]) >= len(f) {
		i++
	}
	bucket = append(bucket, "")
	copy(bucket[i+1:], bucket[i:])
	bucket[i] = f
	m.byPrefix[k] = bucket
}

func prefix(s string) (k [MinMaskedLength]byte) {
	copy(k[:], s)
	return k
}

// Mask returns text with every secret replaced by Masked. Overlapping
// secrets are masked as one.
func (m *Masker) Mask(text string) string {
	if m == nil || len(text) < MinMaskedLength {
		return text
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	if len(m.byPrefix) == 0 {
		return text
	}
	var b strings.Builder
	copied := 0 // text[:copied] is in b
	end := -1   // the end of the masked span being extended, or -1
	for i := 0; i+MinMaskedLength <= len(text); i++ {
		if !m.first[text[i]] {
			continue
		}
		n := m.longestAt(text[i:])
		if n == 0 || (end >= 0 && i+n <= end) {
			continue
		}
		if end < 0 || i > end {
			if end >= 0 {
				b.WriteString(Masked)
				copied = end
			}
			b.WriteString(text[copied:i])
		}
		end = i + n
	}
	if end < 0 {
		return text
	}
	b.WriteString(Masked)
	b.WriteString(text[end:])
	return b.String()
}

// longestAt returns the length of the longest secret form text begins
// with, or 0.
func (m *Masker) longestAt(text string) int {
	for _, f := range m.byPrefix[prefix(text)] {
		if strings.HasPrefix(text, f) {
			return len(f)
		}
	}
	return 0
}

// Writer returns a writer that masks what it writes to w. Each Write is
// masked on its own, so a secret split across two writes is not found:
// give it whole lines or records (a display frame, a log record).
func (m *Masker) Writer(w io.Writer) io.Writer {
	if m == nil {
		return w
	}
	return maskingWriter{m: m, w: w}
}

type maskingWriter struct {
	m *Masker
	w io.Writer
}

func (mw maskingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(mw.w, mw.m.Mask(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
