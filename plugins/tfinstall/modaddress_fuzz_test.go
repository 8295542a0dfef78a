package tfinstall

import (
	"path"
	"reflect"
	"strings"
	"testing"
)

// FuzzParseModuleSource reads module source addresses: no address
// panics, a package's subdirectory stays within the package, and the
// address recorded in the module manifest (String) reads back as the same
// source. The seeds are the addresses of TestParseModuleSource.
func FuzzParseModuleSource(f *testing.F) {
	for _, seed := range []string{
		"./web", "../shared/web", "hashicorp/consul/aws//modules/server", "app.terraform.io/corp/net_work/aws",
		"127.0.0.1:8443/corp/net/aws", "localhost:8443/corp/net/aws", "github.com/hashicorp/example//sub?ref=v1.2.0",
		"github.com/hashicorp/example/sub/dir?ref=v1", "git@github.com:hashicorp/example.git",
		"git::https://example.com/vpc.git?ref=v1.2.0&depth=1", "git::ssh://git@example.com/storage.git//modules/a",
		"git::file:///srv/repo//sub?ref=v1", "https://example.com/vpc-module//sub?archive=zip", "https::https://example.com/x.tgz",
		"s3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip", "www.googleapis.com/storage/v1/bucket/x.zip",
		"bitbucket.org/corp/vpc", "/srv/modules/web", "ftp://example.com/x.zip", "git::https://example.com/x.git//../../etc",
		"svn::https://example.com/x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		src, err := parseModuleSource(raw)
		if err != nil || src.local {
			return
		}
		if sub := src.subdir; sub != "" && (path.Clean(sub) != sub || sub == ".." || strings.HasPrefix(sub, "../") || path.IsAbs(sub)) {
			t.Fatalf("%q: the subdirectory %q is not a clean path within the package", raw, sub)
		}
		again, err := parseModuleSource(src.String())
		if err != nil || !reflect.DeepEqual(again, src) {
			t.Fatalf("%q is recorded as %q, which reads as %+v, %v; want %+v", raw, src, again, err, src)
		}
	})
}
