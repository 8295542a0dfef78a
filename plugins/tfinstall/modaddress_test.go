package tfinstall

import (
	"strings"
	"testing"
)

func TestParseModuleSource(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{in: "./web", want: "local"},
		{in: "../shared/web", want: "local"},
		{in: "hashicorp/consul/aws", want: "registry.opentofu.org/hashicorp/consul/aws"},
		{in: "hashicorp/consul/aws//modules/server", want: "registry.opentofu.org/hashicorp/consul/aws//modules/server"},
		{in: "app.terraform.io/corp/net_work/aws", want: "app.terraform.io/corp/net_work/aws"},
		{in: "127.0.0.1:8443/corp/net/aws", want: "127.0.0.1:8443/corp/net/aws"},
		{in: "localhost:8443/corp/net/aws", err: "is not a module source Cairn can read"},
		{in: "github.com/hashicorp/example", want: "git::https://github.com/hashicorp/example.git"},
		{in: "github.com/hashicorp/example//sub?ref=v1.2.0", want: "git::https://github.com/hashicorp/example.git//sub?ref=v1.2.0"},
		{in: "github.com/hashicorp/example/sub/dir?ref=v1", want: "git::https://github.com/hashicorp/example.git//sub/dir?ref=v1"},
		{in: "git@github.com:hashicorp/example.git", want: "git::ssh://git@github.com/hashicorp/example.git"},
		{in: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1", want: "git::https://example.com/vpc.git?ref=v1.2.0&depth=1"},
		{in: "git::ssh://git@example.com/storage.git//modules/a", want: "git::ssh://git@example.com/storage.git//modules/a"},
		{in: "git::file:///srv/repo//sub?ref=v1", want: "git::file:///srv/repo//sub?ref=v1"},
		{in: "https://example.com/vpc-module.zip", want: "https://example.com/vpc-module.zip"},
		{in: "https://example.com/vpc-module//sub?archive=zip", want: "https://example.com/vpc-module//sub?archive=zip"},
		{in: "https::https://example.com/x.tgz", want: "https://example.com/x.tgz"},
		{in: "s3::https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip", err: "not with the s3 getter"},
		{in: "gcs::https://www.googleapis.com/storage/v1/bucket/x.zip", err: "not with the gcs getter"},
		{in: "hg::http://example.com/vpc.hg", err: "not with the hg getter"},
		{in: "www.googleapis.com/storage/v1/bucket/x.zip", err: "not from S3 or GCS buckets"},
		{in: "bitbucket.org/corp/vpc", err: "write Bitbucket repositories as git::https://bitbucket.org/"},
		{in: "/srv/modules/web", err: "a local module's source starts with ./ or ../"},
		{in: "ftp://example.com/x.zip", err: "not from ftp URLs"},
		{in: "example.com/vpc", err: "is not a module source Cairn can read"},
		{in: "git::https://example.com/x.git//../../etc", err: "is not within the package"},
		{in: "github.com/corp/repo/../../etc", err: "is not within the package"},
		{in: "http::http:0", err: "the http getter fetches http(s) URLs"},
		{in: "svn::https://example.com/x", err: `there is no getter "svn"`},
	} {
		got, err := parseModuleSource(c.in)
		s := got.String()
		if got.local {
			s = "local"
		}
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: got %v, want an error %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.in, err)
		case c.err == "" && s != c.want:
			t.Errorf("%s: got %s, want %s", c.in, s, c.want)
		}
	}
}
