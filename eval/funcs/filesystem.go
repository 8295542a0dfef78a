package funcs

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// resolve returns the file named by a path as the user gave it: relative
// paths resolve against the base directory and may not leave the project
// root; absolute paths (and paths starting with ~) may name any file.
func (s *scope) resolve(given string) (string, error) {
	p, err := expandHome(given)
	if err != nil {
		return "", err
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	full := filepath.Join(s.base, p)
	if rel, err := filepath.Rel(s.root, full); err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("path %s is outside the project directory; use an absolute path to read files elsewhere", given)
	}
	return full, nil
}

// stat resolves a path as the user gave it and returns the file's
// information.
func (s *scope) stat(given string) (string, fs.FileInfo, error) {
	p, err := s.resolve(given)
	if err != nil {
		return "", nil, err
	}
	info, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil, fmt.Errorf("no file exists at %s; file functions read only files that come with the program, so read a file that a resource creates from that resource's attributes instead", given)
	}
	return p, info, err
}

// regularFile resolves a path as the user gave it, which must name a file.
func (s *scope) regularFile(given string) (string, error) {
	p, info, err := s.stat(given)
	if err == nil && info.IsDir() {
		err = fmt.Errorf("%s is a directory, not a file", given)
	}
	return p, err
}

// readFile reads the file named by a path as the user gave it.
func (s *scope) readFile(given string) ([]byte, error) {
	p, err := s.regularFile(given)
	if err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

// fileFunc returns a function of a file path whose result is the file's
// contents passed through decode.
func (s *scope) fileFunc(description string, decode func([]byte) (string, error)) function.Function {
	return stringFunc(description, "path", func(given string) (string, error) {
		data, err := s.readFile(given)
		if err != nil {
			return "", err
		}
		out, err := decode(data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", given, err)
		}
		return out, nil
	})
}

// fileText is the decoding of file: the contents must be UTF-8 text.
func fileText(data []byte) (string, error) {
	if !utf8.Valid(data) {
		return "", errors.New("the contents are not valid UTF-8; read binary files with filebase64, or hash them with filesha256 and the like")
	}
	return string(data), nil
}

// fileBase64 is the encoding of filebase64.
func fileBase64(data []byte) (string, error) {
	return base64.StdEncoding.EncodeToString(data), nil
}

func (s *scope) fileExistsFunc() function.Function {
	return unaryFunc("Reports whether a file exists at the given path.", "path", cty.Bool, func(given string) (cty.Value, error) {
		p, err := s.resolve(given)
		if err != nil {
			return cty.NilVal, err
		}
		info, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return cty.False, nil
		case err != nil:
			return cty.NilVal, err
		case !info.Mode().IsRegular():
			return cty.NilVal, fmt.Errorf("%s exists but is not a regular file (its mode is %s)", given, info.Mode())
		}
		return cty.True, nil
	})
}

func (s *scope) fileSetFunc() function.Function {
	return function.New(&function.Spec{
		Description: "Returns the set of the regular files under a directory whose paths, relative to it and with forward slashes, match a pattern (*, **, ?, [class], {alt,...}).",
		Params: []function.Parameter{
			{Name: "path", Type: cty.String},
			{Name: "pattern", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.Set(cty.String)),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			dir, err := s.resolve(args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			pattern := path.Clean(filepath.ToSlash(args[1].AsString()))
			if !doublestar.ValidatePattern(pattern) {
				return cty.NilVal, function.NewArgErrorf(1, "%q is not a valid pattern; check that its brackets and braces are closed", args[1].AsString())
			}
			matches, err := doublestar.Glob(os.DirFS(dir), pattern, doublestar.WithFilesOnly())
			if err != nil {
				return cty.NilVal, function.NewArgError(1, err)
			}
			if len(matches) == 0 {
				return cty.SetValEmpty(cty.String), nil
			}
			sort.Strings(matches)
			out := make([]cty.Value, len(matches))
			for i, m := range matches {
				out[i] = cty.StringVal(m)
			}
			return cty.SetVal(out), nil
		},
	})
}

func (s *scope) absPathFunc() function.Function {
	return stringFunc("Returns the absolute form of a path; a relative path is taken relative to the program's directory.", "path", func(p string) (string, error) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(s.base, p)
		}
		return filepath.ToSlash(filepath.Clean(p)), nil
	})
}

// BasenameFunc returns the last element of a path.
var BasenameFunc = stringFunc("Returns the last element of a path.", "path", func(p string) (string, error) {
	return filepath.Base(p), nil
})

// DirnameFunc returns a path without its last element.
var DirnameFunc = stringFunc("Returns all but the last element of a path.", "path", func(p string) (string, error) {
	return filepath.Dir(p), nil
})

// PathExpandFunc replaces a leading ~ in a path with the current user's home
// directory.
var PathExpandFunc = stringFunc("Replaces a leading ~ in a path with the home directory of the current user.", "path", expandHome)

func expandHome(p string) (string, error) {
	if !strings.HasPrefix(p, "~") {
		return p, nil
	}
	rest := p[1:]
	if rest != "" && rest[0] != '/' && rest[0] != filepath.Separator {
		return "", fmt.Errorf("cannot expand %s: only ~ (the current user's home directory) can be expanded, not ~user", p)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand %s: %w", p, err)
	}
	return filepath.Join(home, rest), nil
}
