package funcs

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

func hexSHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestAssetFunctions(t *testing.T) {
	files := map[string]string{"root/modules/app/site.zip": "PK not really"}
	for name, content := range projectFiles {
		files[name] = content
	}
	dir, fns := project(t, files)
	outside := filepath.Join(dir, "outside.txt")
	text := resource.NewTextAsset("baﬄe 👍🏽")
	fileURI := "file://" + filepath.ToSlash(outside)

	tests := []struct {
		name   string
		args   []cty.Value
		want   any // *resource.Asset or *resource.Archive
		secret bool
		err    string
	}{
		{name: "stringasset", args: []cty.Value{str("baﬄe 👍🏽")}, want: &resource.Asset{Text: "baﬄe 👍🏽", Hash: hexSHA256("baﬄe 👍🏽")}},
		{name: "stringasset", args: []cty.Value{secret(str("pw"))}, want: resource.NewTextAsset("pw"), secret: true},
		{name: "fileasset", args: []cty.Value{str("main.txt")}, want: &resource.Asset{Path: filepath.Join("modules", "app", "main.txt"), Hash: hexSHA256("baﬄe 👍🏽\n")}},
		{name: "fileasset", args: []cty.Value{str("dir/sub/ü/👍.txt")}, want: &resource.Asset{Path: filepath.Join("modules", "app", "dir", "sub", "ü", "👍.txt"), Hash: hexSHA256("u")}},
		{name: "fileasset", args: []cty.Value{str(outside)}, want: &resource.Asset{Path: outside, Hash: hexSHA256("outside")}},
		{name: "fileasset", args: []cty.Value{str("../../../outside.txt")}, err: "path ../../../outside.txt is outside the project directory"},
		{name: "fileasset", args: []cty.Value{str("dir")}, err: "dir is a directory, not a file"},
		{name: "fileasset", args: []cty.Value{str("nope.txt")}, err: "no file exists at nope.txt"},
		{name: "remoteasset", args: []cty.Value{str("https://example.com/ﬄ.txt")}, want: &resource.Asset{URI: "https://example.com/ﬄ.txt"}},
		{name: "remoteasset", args: []cty.Value{str(fileURI)}, want: &resource.Asset{URI: fileURI, Hash: hexSHA256("outside")}},
		{name: "remoteasset", args: []cty.Value{str("ftp://example.com/a")}, err: `"ftp://example.com/a" is not an http, https or file URI`},
		{name: "filearchive", args: []cty.Value{str("dir")}, want: &resource.Archive{Path: filepath.Join("modules", "app", "dir")}},
		{name: "filearchive", args: []cty.Value{str("site.zip")}, want: &resource.Archive{Path: filepath.Join("modules", "app", "site.zip"), Hash: hexSHA256("PK not really")}},
		{name: "filearchive", args: []cty.Value{str("main.txt")}, err: "main.txt is not an archive; give a directory or a .tar, .tgz, .tar.gz, .zip or .jar file"},
		{name: "filearchive", args: []cty.Value{str("../../..")}, err: "path ../../.. is outside the project directory"},
		{name: "remotearchive", args: []cty.Value{str("https://example.com/site.tgz")}, want: &resource.Archive{URI: "https://example.com/site.tgz"}},
		{name: "remotearchive", args: []cty.Value{str("s3://bucket/site.tgz")}, err: "is not an http, https or file URI"},
		{
			name: "assetarchive",
			args: []cty.Value{obj(map[string]cty.Value{"index.html": values.AssetVal(text), "ﬄ.txt": values.AssetVal(text)})},
			want: &resource.Archive{Assets: map[string]any{"index.html": text, "ﬄ.txt": text}},
		},
		{
			name: "assetarchive",
			args: []cty.Value{obj(map[string]cty.Value{"remote": values.AssetVal(&resource.Asset{URI: "https://example.com/a"})})},
			want: &resource.Archive{Assets: map[string]any{"remote": &resource.Asset{URI: "https://example.com/a"}}},
		},
		{name: "assetarchive", args: []cty.Value{obj(map[string]cty.Value{"a": str("a")})}, err: `member "a" is string; the members of an archive are assets and archives`},
		{name: "assetarchive", args: []cty.Value{obj(map[string]cty.Value{"a": cty.NullVal(values.AssetType)})}, err: `member "a" is null`},
		{name: "assetarchive", args: []cty.Value{str("a")}, err: "assetarchive needs an object of assets and archives by name, not string"},
		{name: "assetarchive", args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": secret(values.AssetVal(text))})}, want: &resource.Archive{Assets: map[string]any{"a": text}}, secret: true},
	}
	for _, test := range tests {
		t.Run(callName(test.name, test.args), func(t *testing.T) {
			got, err := fns[test.name].Call(test.args)
			if checkError(t, err, test.err) {
				return
			}
			if got.HasMark(values.Secret) != test.secret {
				t.Errorf("wrong marks\ngot:  %#v\nwant secret: %v", got, test.secret)
			}
			got, _ = got.Unmark()
			gotValue := got.EncapsulatedValue()
			if archive, ok := gotValue.(*resource.Archive); ok && test.want.(*resource.Archive).Hash == "" && archive.Hash != "" {
				// A directory or members: the engine defines the hash; check
				// only that it is there when every member has one.
				copied := *archive
				copied.Hash = ""
				gotValue = &copied
			}
			if !reflect.DeepEqual(gotValue, test.want) {
				t.Errorf("wrong result\ngot:  %#v\nwant: %#v", gotValue, test.want)
			}
		})
	}
}

func TestArchiveHashes(t *testing.T) {
	_, fns := project(t, projectFiles)
	text := values.AssetVal(resource.NewTextAsset("a"))
	for _, test := range []struct {
		name   string
		args   []cty.Value
		hashed bool
	}{
		{"filearchive", []cty.Value{str("dir")}, true},
		{"assetarchive", []cty.Value{obj(map[string]cty.Value{"a": text})}, true},
		{"assetarchive", []cty.Value{obj(map[string]cty.Value{"a": text, "b": values.AssetVal(&resource.Asset{URI: "https://example.com/b"})})}, false},
	} {
		t.Run(callName(test.name, test.args), func(t *testing.T) {
			got, err := fns[test.name].Call(test.args)
			if err != nil {
				t.Fatal(err)
			}
			if hash := got.EncapsulatedValue().(*resource.Archive).Hash; (hash != "") != test.hashed {
				t.Errorf("wrong result\ngot:  hash %q\nwant: hashed %v", hash, test.hashed)
			}
		})
	}
}

func TestResourceFunctions(t *testing.T) {
	const urn = "urn:pulumi:dev::web::my:index:Component$aws:s3/bucket:Bucket::ﬄ-site"
	dep := values.Dep{URN: urn}
	bucket := values.ResourceObject(urn, "b-1", true, resource.Map{"arn": resource.MakeSecret(resource.String("arn"))})
	pending := obj(map[string]cty.Value{"urn": cty.UnknownVal(cty.String)})
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"pulumiresourcename": {
			{args: []cty.Value{bucket}, want: str("ﬄ-site").Mark(dep)},
			{args: []cty.Value{str(urn)}, want: str("ﬄ-site")},
			{args: []cty.Value{secret(bucket)}, want: secret(str("ﬄ-site").Mark(dep))},
			{args: []cty.Value{pending}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{cty.DynamicVal}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{obj(map[string]cty.Value{"id": str("x")})}, err: "needs a resource (or its URN), not object"},
			{args: []cty.Value{str("site")}, err: `invalid URN "site"`},
			{args: []cty.Value{obj(map[string]cty.Value{"urn": cty.NullVal(cty.String)})}, err: "the resource's urn is null"},
		},
		"pulumiresourcetype": {
			{args: []cty.Value{bucket}, want: str("aws:s3/bucket:Bucket").Mark(dep)},
		},
		"pulumiresourceurn": {
			{args: []cty.Value{bucket}, want: str(urn).Mark(dep)},
		},
	})
}
