package command

import (
	"strings"
	"testing"
)

func TestGlob(t *testing.T) {
	tests := []struct {
		pattern string
		match   []string
		noMatch []string
	}{
		{"*.txt", []string{"a.txt", ".txt"}, []string{"sub/a.txt", "a.txt.bak"}},
		{"**", []string{"a", "sub/deep/a"}, nil},
		{"src/**.js", []string{"src/index.js", "src/a/b.js"}, []string{"index.js", "src/a.ts"}},
		{"assets/**", []string{"assets/logos/logo.svg"}, []string{"assets"}},
		{"**secret.*", []string{"src/secret.js", "secret.txt"}, []string{"src/secret"}},
		{"?.md", []string{"a.md"}, []string{"ab.md", "/.md"}},
		{"[ab]*.go", []string{"a.go", "bx.go"}, []string{"c.go"}},
		{"[!ab].go", []string{"c.go"}, []string{"a.go"}},
		{"file.{js,ts}", []string{"file.js", "file.ts"}, []string{"file.go"}},
		{"{a,b/*}.x", []string{"a.x", "b/c.x"}, []string{"b.x"}},
		{"a}", []string{"a}"}, nil},
		{`\*.txt`, []string{"*.txt"}, []string{"a.txt"}},
		{"a+b(c).txt", []string{"a+b(c).txt"}, []string{"aab(c).txt"}},
	}
	for _, tt := range tests {
		re, err := compileGlob(tt.pattern)
		if err != nil {
			t.Errorf("%s: %v", tt.pattern, err)
			continue
		}
		for _, p := range tt.match {
			if !re.MatchString(p) {
				t.Errorf("%s does not match %s", tt.pattern, p)
			}
		}
		for _, p := range tt.noMatch {
			if re.MatchString(p) {
				t.Errorf("%s matches %s", tt.pattern, p)
			}
		}
	}
	for _, bad := range []string{"[abc", "{a,b", "{a,{b}"} {
		if _, err := compileGlob(bad); err == nil || !strings.Contains(err.Error(), "path glob") {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func TestTail(t *testing.T) {
	long := strings.Repeat("x", tailBytes) + "\nlast"
	tests := []struct{ stderr, stdout, want string }{
		{"err\n", "out", "err"},
		{"", "out\n", "out"},
		{" \n", "out", "out"},
		{"a\nb\n", "", "a\nb"},
		{"partial-line" + long, "", "…\nlast"},
	}
	for _, tt := range tests {
		if got := tail(tt.stderr, tt.stdout); got != tt.want {
			t.Errorf("tail(%.20q, %q) = %.40q, want %q", tt.stderr, tt.stdout, got, tt.want)
		}
	}
}
