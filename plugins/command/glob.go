package command

import (
	"fmt"
	"regexp"
	"strings"
)

// compileGlob turns a path glob into a regular expression over slash
// separated paths: ** matches any run of characters, / included; * any run
// within a segment; ? one character of a segment; [abc], [a-z] and [!abc]
// one character of a class; {a,b} either alternative; \ quotes the next
// character.
func compileGlob(pattern string) (*regexp.Regexp, error) {
	expr, _, err := globExpr(pattern, false)
	if err != nil {
		return nil, fmt.Errorf("path glob %q: %w", pattern, err)
	}
	return regexp.Compile("^" + expr + "$")
}

// globExpr translates pattern up to its end or, inside braces, up to the
// ',' or '}' that ends the current alternative, and returns what is left.
func globExpr(pattern string, inBraces bool) (string, string, error) {
	var b strings.Builder
	for len(pattern) > 0 {
		c := pattern[0]
		switch {
		case inBraces && (c == ',' || c == '}'):
			return b.String(), pattern, nil
		case strings.HasPrefix(pattern, "**"):
			b.WriteString(".*")
			pattern = pattern[2:]
			continue
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '\\' && len(pattern) > 1:
			b.WriteString(regexp.QuoteMeta(pattern[1:2]))
			pattern = pattern[2:]
			continue
		case c == '[':
			end := strings.IndexByte(pattern[1:], ']')
			if end < 0 {
				return "", "", fmt.Errorf("unclosed [")
			}
			class := pattern[1 : end+1]
			neg := strings.HasPrefix(class, "!")
			class = strings.TrimPrefix(class, "!")
			b.WriteByte('[')
			if neg {
				b.WriteByte('^')
			}
			b.WriteString(strings.ReplaceAll(class, `\`, `\\`))
			b.WriteByte(']')
			pattern = pattern[end+2:]
			continue
		case c == '{':
			var alts []string
			rest := pattern[1:]
			for {
				alt, r, err := globExpr(rest, true)
				if err != nil {
					return "", "", err
				}
				alts = append(alts, alt)
				if r == "" {
					return "", "", fmt.Errorf("unclosed {")
				}
				rest = r[1:]
				if r[0] == '}' {
					break
				}
			}
			b.WriteString("(?:" + strings.Join(alts, "|") + ")")
			pattern = rest
			continue
		default:
			b.WriteString(regexp.QuoteMeta(pattern[:1]))
		}
		pattern = pattern[1:]
	}
	return b.String(), "", nil
}
