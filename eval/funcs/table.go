package funcs

import (
	"maps"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Options configure the library for one program.
type Options struct {
	BaseDir string // directory relative paths resolve against (the module's directory)
	RootDir string // the project root; file functions may not read outside it unless the path is absolute
	Preview bool   // impure functions (timestamp, uuid, bcrypt) return unknown values during a preview
}

// Functions returns the library by name.
func Functions(o Options) map[string]function.Function {
	s := newScope(o, time.Now())
	fns := map[string]function.Function{
		// Numeric.
		"abs":      stdlib.AbsoluteFunc,
		"ceil":     stdlib.CeilFunc,
		"floor":    stdlib.FloorFunc,
		"log":      stdlib.LogFunc,
		"max":      stdlib.MaxFunc,
		"min":      stdlib.MinFunc,
		"parseint": stdlib.ParseIntFunc,
		"pow":      stdlib.PowFunc,
		"signum":   stdlib.SignumFunc,
		"sum":      SumFunc,

		// Strings.
		"chomp":       stdlib.ChompFunc,
		"endswith":    EndsWithFunc,
		"format":      stdlib.FormatFunc,
		"formatlist":  stdlib.FormatListFunc,
		"indent":      stdlib.IndentFunc,
		"join":        stdlib.JoinFunc,
		"lower":       stdlib.LowerFunc,
		"regex":       stdlib.RegexFunc,
		"regexall":    stdlib.RegexAllFunc,
		"replace":     ReplaceFunc,
		"split":       stdlib.SplitFunc,
		"startswith":  StartsWithFunc,
		"strcontains": StrContainsFunc,
		"strrev":      stdlib.ReverseFunc,
		"substr":      stdlib.SubstrFunc,
		"title":       stdlib.TitleFunc,
		"trim":        stdlib.TrimFunc,
		"trimprefix":  stdlib.TrimPrefixFunc,
		"trimspace":   stdlib.TrimSpaceFunc,
		"trimsuffix":  stdlib.TrimSuffixFunc,
		"upper":       stdlib.UpperFunc,

		// Collections.
		"alltrue":         AllTrueFunc,
		"anytrue":         AnyTrueFunc,
		"chunklist":       stdlib.ChunklistFunc,
		"coalesce":        CoalesceFunc,
		"coalescelist":    stdlib.CoalesceListFunc,
		"compact":         stdlib.CompactFunc,
		"concat":          stdlib.ConcatFunc,
		"contains":        stdlib.ContainsFunc,
		"distinct":        stdlib.DistinctFunc,
		"element":         stdlib.ElementFunc,
		"flatten":         stdlib.FlattenFunc,
		"index":           IndexFunc,
		"keys":            stdlib.KeysFunc,
		"length":          LengthFunc,
		"lookup":          LookupFunc,
		"matchkeys":       MatchKeysFunc,
		"merge":           stdlib.MergeFunc,
		"one":             OneFunc,
		"range":           stdlib.RangeFunc,
		"reverse":         stdlib.ReverseListFunc,
		"setintersection": stdlib.SetIntersectionFunc,
		"setproduct":      stdlib.SetProductFunc,
		"setsubtract":     stdlib.SetSubtractFunc,
		"setunion":        stdlib.SetUnionFunc,
		"slice":           stdlib.SliceFunc,
		"sort":            stdlib.SortFunc,
		"transpose":       TransposeFunc,
		"values":          stdlib.ValuesFunc,
		"zipmap":          stdlib.ZipmapFunc,

		// Encoding.
		"base64decode":     Base64DecodeFunc,
		"base64encode":     Base64EncodeFunc,
		"base64gunzip":     Base64GunzipFunc,
		"base64gzip":       Base64GzipFunc,
		"csvdecode":        stdlib.CSVDecodeFunc,
		"jsondecode":       stdlib.JSONDecodeFunc,
		"jsonencode":       stdlib.JSONEncodeFunc,
		"textdecodebase64": TextDecodeBase64Func,
		"textencodebase64": TextEncodeBase64Func,
		"urldecode":        URLDecodeFunc,
		"urlencode":        URLEncodeFunc,
		"yamldecode":       ctyyaml.YAMLDecodeFunc,
		"yamlencode":       ctyyaml.YAMLEncodeFunc,

		// File system.
		"abspath":    s.absPathFunc(),
		"basename":   BasenameFunc,
		"dirname":    DirnameFunc,
		"file":       s.fileFunc("Reads the contents of a file as UTF-8 text.", fileText),
		"filebase64": s.fileFunc("Reads the contents of a file and encodes them in Base64.", fileBase64),
		"fileexists": s.fileExistsFunc(),
		"fileset":    s.fileSetFunc(),
		"pathexpand": PathExpandFunc,

		// Date and time.
		"formatdate":    stdlib.FormatDateFunc,
		"plantimestamp": s.planTimestampFunc(),
		"timeadd":       stdlib.TimeAddFunc,
		"timecmp":       TimeCmpFunc,
		"timestamp":     s.impure(TimestampFunc),

		// Hashes and crypto.
		"base64sha256":     hashFunc(sha256Base64),
		"base64sha512":     hashFunc(sha512Base64),
		"bcrypt":           s.impure(BcryptFunc),
		"filebase64sha256": s.fileHashFunc(sha256Base64),
		"filebase64sha512": s.fileHashFunc(sha512Base64),
		"filemd5":          s.fileHashFunc(md5Hex),
		"filesha1":         s.fileHashFunc(sha1Hex),
		"filesha256":       s.fileHashFunc(sha256Hex),
		"filesha512":       s.fileHashFunc(sha512Hex),
		"md5":              hashFunc(md5Hex),
		"rsadecrypt":       RSADecryptFunc,
		"sha1":             hashFunc(sha1Hex),
		"sha256":           hashFunc(sha256Hex),
		"sha512":           hashFunc(sha512Hex),
		"uuid":             s.impure(UUIDFunc),
		"uuidv5":           UUIDv5Func,

		// IP networks.
		"cidrcontains": CIDRContainsFunc,
		"cidrhost":     CIDRHostFunc,
		"cidrnetmask":  CIDRNetmaskFunc,
		"cidrsubnet":   CIDRSubnetFunc,
		"cidrsubnets":  CIDRSubnetsFunc,

		// Types and secrets.
		"can":             tryfunc.CanFunc,
		"ephemeralasnull": EphemeralAsNullFunc,
		"issensitive":     IsSensitiveFunc,
		"nonsensitive":    NonsensitiveFunc,
		"sensitive":       SensitiveFunc,
		"tobool":          stdlib.MakeToFunc(cty.Bool),
		"tolist":          stdlib.MakeToFunc(cty.List(cty.DynamicPseudoType)),
		"tomap":           stdlib.MakeToFunc(cty.Map(cty.DynamicPseudoType)),
		"tonumber":        stdlib.MakeToFunc(cty.Number),
		"toset":           stdlib.MakeToFunc(cty.Set(cty.DynamicPseudoType)),
		"tostring":        stdlib.MakeToFunc(cty.String),
		"try":             tryfunc.TryFunc,
	}

	// Templates see the same library (fns, once complete), one level
	// deeper.
	fns["templatefile"] = s.templateFileFunc(fns, 0)
	fns["templatestring"] = s.templateStringFunc(fns, 0)
	pulumi := map[string]function.Function{
		// Pulumi.
		"assetarchive":       AssetArchiveFunc,
		"filearchive":        s.fileArchiveFunc(),
		"fileasset":          s.fileAssetFunc(),
		"pulumiresourcename": PulumiResourceNameFunc,
		"pulumiresourcetype": PulumiResourceTypeFunc,
		"pulumiresourceurn":  PulumiResourceURNFunc,
		"remotearchive":      RemoteArchiveFunc,
		"remoteasset":        RemoteAssetFunc,
		"stringasset":        StringAssetFunc,

		// Pulumi YAML's builtins.
		"fromjson":     stdlib.JSONDecodeFunc,
		"secret":       SensitiveFunc,
		"select":       SelectFunc,
		"singleornone": SingleOrNoneFunc,
		"tojson":       stdlib.JSONEncodeFunc,
		"unsecret":     NonsensitiveFunc,
	}
	// Terraform's functions are also core::<name>, the name OpenTofu and
	// Terraform give them beside provider functions.
	for name, f := range maps.Clone(fns) {
		fns["core::"+name] = f
	}
	maps.Copy(fns, pulumi)
	guardAll(fns)
	return fns
}

// scope is what the functions of one program know of their surroundings.
type scope struct {
	base     string // absolute BaseDir
	root     string // absolute RootDir
	preview  bool
	planTime time.Time
}

func newScope(o Options, now time.Time) *scope {
	base := absDir(o.BaseDir)
	root := base
	if o.RootDir != "" {
		root = absDir(o.RootDir)
	}
	return &scope{base: base, root: root, preview: o.Preview, planTime: now.UTC()}
}

func absDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}

// impure returns f, or during a preview a function with the signature of f
// whose result is unknown.
func (s *scope) impure(f function.Function) function.Function {
	if s.preview {
		return function.Unpredictable(f)
	}
	return f
}

// refineNotNull refines the unknown results of functions that never return
// null.
func refineNotNull(b *cty.RefinementBuilder) *cty.RefinementBuilder { return b.NotNull() }
