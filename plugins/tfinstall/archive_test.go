package tfinstall

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tarOf returns a tar archive of headers, each file's content its name.
func tarOf(t *testing.T, headers ...tar.Header) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, h := range headers {
		if h.Typeflag == tar.TypeReg {
			h.Size, h.Mode = int64(len(h.Name)), 0o644
		}
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			tw.Write([]byte(h.Name))
		}
	}
	tw.Close()
	return writeFile(t, filepath.Join(t.TempDir(), "a.tar"), buf.Bytes())
}

func file(name string) tar.Header { return tar.Header{Name: name, Typeflag: tar.TypeReg} }

func link(name, target string) tar.Header {
	return tar.Header{Name: name, Linkname: target, Typeflag: tar.TypeSymlink}
}

func TestExtractGuards(t *testing.T) {
	for _, c := range []struct {
		name    string
		entries []tar.Header
		err     string
	}{
		{"inner links", []tar.Header{file("a/main.tf"), link("b/main.tf", "../a/main.tf"), link("c", "a")}, ""},
		{"dot-dot entry", []tar.Header{file("../evil.tf")}, `entry "../evil.tf" would land outside the package folder`},
		{"absolute entry", []tar.Header{file("/tmp/evil.tf")}, `entry "/tmp/evil.tf" would land outside`},
		{"absolute link", []tar.Header{link("l", "/etc/passwd")}, `entry "l" links to /etc/passwd, outside the package folder`},
		{"escaping link", []tar.Header{file("a/x"), link("a/l", "../../x")}, `entry "a/l" links to ../../x, which is not within the package folder`},
		// s/up leads to the package folder; through it, s/out leads above.
		{"link through a link", []tar.Header{file("s/x"), link("s/up", ".."), link("s/out", "up/..")}, `entry "s/out" links to up/.., which is not within`},
		{"file within a link", []tar.Header{link("l", "."), file("l/x")}, `entry "l": symlink`},
		{"link within a link out", []tar.Header{file("d/x"), link("l", "d"), link("l/m", "../..")}, `entry "l/m" links to ../.., which is not within`},
		{"hard link", []tar.Header{file("a"), {Name: "b", Linkname: "a", Typeflag: tar.TypeLink}}, `entry "b" is a hard link`},
		{"device", []tar.Header{{Name: "dev", Typeflag: tar.TypeChar}}, `entry "dev" is a`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "pkg")
			os.Mkdir(dir, 0o755)
			err := extract(tarOf(t, c.entries...), "tar", dir, true)
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want %q", err, c.err)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "evil.tf")); err == nil {
				t.Fatal("a file was written outside the package folder")
			}
		})
	}
}

func TestExtractInnerLinkReads(t *testing.T) {
	dir := t.TempDir()
	if err := extract(tarOf(t, file("a/main.tf"), link("b", "a")), "tar", dir, true); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "b", "main.tf")); got != "a/main.tf" {
		t.Fatalf("through the link: %q", got)
	}
}

func TestExtractSizeLimit(t *testing.T) {
	defer func(n int64) { maxUnpacked = n }(maxUnpacked)
	maxUnpacked = 12
	archive := tarOf(t, file("one/main.tf"), file("two/main.tf")) // 11 bytes each
	err := extract(archive, "tar", t.TempDir(), true)
	if err == nil || !strings.Contains(err.Error(), "the archive unpacks to more than") {
		t.Fatalf("got %v", err)
	}
	maxUnpacked = 22
	if err := extract(archive, "tar", t.TempDir(), true); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
}

func TestProviderZipRefusesLinks(t *testing.T) {
	err := extract(tarOf(t, file("a"), link("b", "a")), "tar", t.TempDir(), false)
	if err == nil || !strings.Contains(err.Error(), `entry "b" is a L`) {
		t.Fatalf("got %v", err)
	}
}

// zipOf returns a zip archive of files (name -> content), each a file,
// or a symbolic link to its content when its name ends in @.
func zipOf(t *testing.T, files map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	z := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		h := &zip.FileHeader{Name: strings.TrimSuffix(name, "@")}
		h.SetMode(0o644)
		if strings.HasSuffix(name, "@") {
			h.SetMode(fs.ModeSymlink | 0o777)
		}
		w, err := z.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[name]))
	}
	z.Close()
	return writeFile(t, filepath.Join(t.TempDir(), "a.zip"), buf.Bytes())
}

func TestExtractZipModule(t *testing.T) {
	dir := t.TempDir()
	if err := extract(zipOf(t, map[string]string{"main.tf": "# zip\n", "same.tf@": "main.tf"}), "zip", dir, true); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "same.tf")); got != "# zip\n" {
		t.Fatalf("through the link: %q", got)
	}
	err := extract(zipOf(t, map[string]string{"out@": "../../etc"}), "zip", t.TempDir(), true)
	if err == nil || !strings.Contains(err.Error(), `entry "out" links to ../../etc, which is not within the package folder`) {
		t.Fatalf("a link out: %v", err)
	}
}

func TestExtractTarBz2(t *testing.T) {
	if _, err := exec.LookPath("bzip2"); err != nil {
		t.Skip("bzip2 is not on PATH")
	}
	archive := tarOf(t, file("main.tf"))
	if out, err := exec.Command("bzip2", archive).CombinedOutput(); err != nil {
		t.Fatalf("bzip2: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if err := extract(archive+".bz2", "tar.bz2", dir, true); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "main.tf")); got != "main.tf" {
		t.Fatalf("unpacked %q", got)
	}
}
