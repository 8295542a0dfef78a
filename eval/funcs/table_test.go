package funcs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/eval/values"
)

// Shorthands for test values.
var (
	str    = cty.StringVal
	num    = cty.NumberIntVal
	numf   = cty.NumberFloatVal
	strs   = func(s ...string) cty.Value { return cty.ListVal(strVals(s)) }
	tuple  = func(v ...cty.Value) cty.Value { return cty.TupleVal(v) }
	list   = func(v ...cty.Value) cty.Value { return cty.ListVal(v) }
	obj    = cty.ObjectVal
	secret = func(v cty.Value) cty.Value { return v.Mark(values.Secret) }
)

func strVals(s []string) []cty.Value {
	out := make([]cty.Value, len(s))
	for i, e := range s {
		out[i] = cty.StringVal(e)
	}
	return out
}

// testdataFunctions returns the library for a program in testdata.
func testdataFunctions(t *testing.T) map[string]function.Function {
	t.Helper()
	return Functions(Options{BaseDir: "testdata", RootDir: "testdata"})
}

// callTest is a call of one function and its expected result or error.
type callTest struct {
	args []cty.Value
	want cty.Value
	err  string // a part of the expected error message
}

// runFamily runs the call tests of a family of functions, by name.
func runFamily(t *testing.T, fns map[string]function.Function, family map[string][]callTest) {
	t.Helper()
	for _, name := range sortedNames(family) {
		t.Run(name, func(t *testing.T) {
			f, ok := fns[name]
			if !ok {
				t.Fatalf("no function %q in the table", name)
			}
			for _, test := range family[name] {
				t.Run(callName(name, test.args), func(t *testing.T) {
					got, err := f.Call(test.args)
					if checkError(t, err, test.err) {
						return
					}
					if !got.RawEquals(test.want) {
						t.Errorf("wrong result\ngot:  %#v\nwant: %#v", got, test.want)
					}
				})
			}
		})
	}
}

// checkError checks err against want, a part of the expected message or ""
// for none, and reports whether an error was expected.
func checkError(t *testing.T, err error, want string) bool {
	t.Helper()
	switch {
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Fatalf("wrong error\ngot:  %v\nwant: %s", err, want)
	case want == "" && err != nil:
		t.Fatalf("unexpected error: %s", err)
	}
	return want != ""
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// callName names a subtest after its call, in cty's Go syntax.
func callName(name string, args []cty.Value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.GoString()
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

// documentedNames are the functions the library promises.
var documentedNames = strings.Fields(`
	abs ceil floor log max min pow signum parseint sum
	format formatlist join split lower upper title trim trimprefix trimsuffix trimspace chomp indent substr strrev regex regexall replace startswith endswith strcontains
	length concat contains distinct element flatten keys values lookup merge range reverse slice sort zipmap compact coalesce coalescelist chunklist index one alltrue anytrue matchkeys transpose setunion setintersection setsubtract setproduct
	jsonencode jsondecode yamlencode yamldecode base64encode base64decode base64gzip base64gunzip csvdecode urlencode urldecode textencodebase64 textdecodebase64
	file fileexists fileset filebase64 templatefile templatestring abspath basename dirname pathexpand
	timestamp timeadd timecmp formatdate plantimestamp
	md5 sha1 sha256 sha512 base64sha256 base64sha512 filesha256 filemd5 filebase64sha256 filesha1 filesha512 bcrypt uuid uuidv5 rsadecrypt
	cidrhost cidrnetmask cidrsubnet cidrsubnets cidrcontains
	tostring tonumber tobool tolist toset tomap try can sensitive nonsensitive issensitive ephemeralasnull
	fileasset stringasset remoteasset filearchive remotearchive assetarchive
	pulumiresourcename pulumiresourcetype pulumiresourceurn
	fromjson tojson secret unsecret singleornone select
`)

func TestFunctionsHasEveryName(t *testing.T) {
	fns := Functions(Options{})
	for _, name := range documentedNames {
		if _, ok := fns[name]; !ok {
			t.Errorf("no function %q in the table", name)
		}
	}
}

// site is a resource value, as evaluation sees one.
var site = values.ResourceObject(resource.NewURN("dev", "web", "", "aws:s3/bucket:Bucket", "site"), "site-123", true, resource.Map{"arn": resource.String("arn:aws:s3:::site")})

// rsaKey is a private key of testdata, and rsaCiphertext "hunter2"
// encrypted for it (openssl pkeyutl -encrypt, PKCS #1 v1.5 padding).
var (
	rsaKey        = string(must(os.ReadFile("testdata/rsa.pem")))
	rsaCiphertext = "e3R4zfYSSij87k803MFYlMJqOpBShb7hxeOYwUzG71ad7WgE8hHahUXPUsdx1T6FzPSrC2Q4lt3MIlZtHaNMfJLypbbjadMB+HB2BOqkHTSk1UWNGZpj51R6vNKyETZS/k9IGRwSUBGn/pN+gOFq/hnJufJ9eJPqs+YfwmeDDc4="
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// sampleCalls has a valid call of every function in the table (except try
// and can, whose arguments are expressions; see TestTryAndCan), with its
// result when that is predictable.
var sampleCalls = map[string]callTest{
	// Numeric.
	"abs":      {args: []cty.Value{num(-3)}, want: num(3)},
	"ceil":     {args: []cty.Value{numf(1.2)}, want: num(2)},
	"floor":    {args: []cty.Value{numf(1.8)}, want: num(1)},
	"log":      {args: []cty.Value{num(8), num(2)}, want: num(3)},
	"max":      {args: []cty.Value{num(1), num(5), num(3)}, want: num(5)},
	"min":      {args: []cty.Value{num(4), num(2), num(3)}, want: num(2)},
	"parseint": {args: []cty.Value{str("ff"), num(16)}, want: num(255)},
	"pow":      {args: []cty.Value{num(2), num(3)}, want: num(8)},
	"signum":   {args: []cty.Value{num(-3)}, want: num(-1)},
	"sum":      {args: []cty.Value{list(num(1), num(2), num(3))}, want: num(6)},

	// Strings.
	"chomp":       {args: []cty.Value{str("baﬄe\n")}, want: str("baﬄe")},
	"endswith":    {args: []cty.Value{str("hello"), str("lo")}, want: cty.True},
	"format":      {args: []cty.Value{str("%s-%d"), str("web"), num(1)}, want: str("web-1")},
	"formatlist":  {args: []cty.Value{str("%s!"), strs("a", "b")}, want: strs("a!", "b!")},
	"indent":      {args: []cty.Value{num(2), str("a\nb")}, want: str("a\n  b")},
	"join":        {args: []cty.Value{str("-"), strs("a", "b")}, want: str("a-b")},
	"lower":       {args: []cty.Value{str("ÀB")}, want: str("àb")},
	"regex":       {args: []cty.Value{str("[0-9]+"), str("ab12")}, want: str("12")},
	"regexall":    {args: []cty.Value{str("[0-9]"), str("a1b2")}, want: strs("1", "2")},
	"replace":     {args: []cty.Value{str("hello"), str("l"), str("L")}, want: str("heLLo")},
	"split":       {args: []cty.Value{str(","), str("a,b")}, want: strs("a", "b")},
	"startswith":  {args: []cty.Value{str("hello"), str("he")}, want: cty.True},
	"strcontains": {args: []cty.Value{str("hello"), str("ell")}, want: cty.True},
	"strrev":      {args: []cty.Value{str("abc")}, want: str("cba")},
	"substr":      {args: []cty.Value{str("hello"), num(1), num(3)}, want: str("ell")},
	"title":       {args: []cty.Value{str("hello world")}, want: str("Hello World")},
	"trim":        {args: []cty.Value{str("?!hi?!"), str("!?")}, want: str("hi")},
	"trimprefix":  {args: []cty.Value{str("hello"), str("he")}, want: str("llo")},
	"trimspace":   {args: []cty.Value{str(" hi\n")}, want: str("hi")},
	"trimsuffix":  {args: []cty.Value{str("hello"), str("lo")}, want: str("hel")},
	"upper":       {args: []cty.Value{str("àb")}, want: str("ÀB")},

	// Collections.
	"alltrue":         {args: []cty.Value{list(cty.True, cty.True)}, want: cty.True},
	"anytrue":         {args: []cty.Value{list(cty.False, cty.True)}, want: cty.True},
	"chunklist":       {args: []cty.Value{strs("a", "b", "c"), num(2)}, want: list(strs("a", "b"), strs("c"))},
	"coalesce":        {args: []cty.Value{str(""), str("b")}, want: str("b")},
	"coalescelist":    {args: []cty.Value{cty.ListValEmpty(cty.String), strs("a")}, want: strs("a")},
	"compact":         {args: []cty.Value{strs("a", "", "b")}, want: strs("a", "b")},
	"concat":          {args: []cty.Value{strs("a"), strs("b")}, want: strs("a", "b")},
	"contains":        {args: []cty.Value{strs("a", "b"), str("b")}, want: cty.True},
	"distinct":        {args: []cty.Value{strs("a", "a", "b")}, want: strs("a", "b")},
	"element":         {args: []cty.Value{strs("a", "b"), num(3)}, want: str("b")},
	"flatten":         {args: []cty.Value{tuple(strs("a"), tuple(str("b")))}, want: tuple(str("a"), str("b"))},
	"index":           {args: []cty.Value{strs("a", "b"), str("b")}, want: num(1)},
	"keys":            {args: []cty.Value{obj(map[string]cty.Value{"b": num(1), "a": num(2)})}, want: tuple(str("a"), str("b"))},
	"length":          {args: []cty.Value{str("baﬄe")}, want: num(4)},
	"lookup":          {args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": str("x")}), str("a"), str("d")}, want: str("x")},
	"matchkeys":       {args: []cty.Value{strs("i", "j"), strs("us", "eu"), strs("eu")}, want: strs("j")},
	"merge":           {args: []cty.Value{obj(map[string]cty.Value{"a": num(1)}), obj(map[string]cty.Value{"b": num(2)})}, want: obj(map[string]cty.Value{"a": num(1), "b": num(2)})},
	"one":             {args: []cty.Value{strs("a")}, want: str("a")},
	"range":           {args: []cty.Value{num(3)}, want: list(num(0), num(1), num(2))},
	"reverse":         {args: []cty.Value{strs("a", "b")}, want: strs("b", "a")},
	"select":          {args: []cty.Value{num(1), strs("a", "b")}, want: str("b")},
	"setintersection": {args: []cty.Value{cty.SetVal(strVals([]string{"a", "b"})), cty.SetVal(strVals([]string{"b"}))}, want: cty.SetVal(strVals([]string{"b"}))},
	"setproduct":      {args: []cty.Value{strs("a"), strs("x", "y")}, want: list(tuple(str("a"), str("x")), tuple(str("a"), str("y")))},
	"setsubtract":     {args: []cty.Value{cty.SetVal(strVals([]string{"a", "b"})), cty.SetVal(strVals([]string{"b"}))}, want: cty.SetVal(strVals([]string{"a"}))},
	"setunion":        {args: []cty.Value{cty.SetVal(strVals([]string{"a"})), cty.SetVal(strVals([]string{"b"}))}, want: cty.SetVal(strVals([]string{"a", "b"}))},
	"singleornone":    {args: []cty.Value{strs("a")}, want: str("a")},
	"slice":           {args: []cty.Value{strs("a", "b", "c"), num(1), num(3)}, want: strs("b", "c")},
	"sort":            {args: []cty.Value{strs("b", "a")}, want: strs("a", "b")},
	"transpose":       {args: []cty.Value{cty.MapVal(map[string]cty.Value{"a": strs("1", "2"), "b": strs("2")})}, want: cty.MapVal(map[string]cty.Value{"1": strs("a"), "2": strs("a", "b")})},
	"values":          {args: []cty.Value{obj(map[string]cty.Value{"b": num(1), "a": num(2)})}, want: tuple(num(2), num(1))},
	"zipmap":          {args: []cty.Value{strs("a"), strs("x")}, want: cty.MapVal(map[string]cty.Value{"a": str("x")})},

	// Encoding.
	"base64decode":     {args: []cty.Value{str("aGVsbG8=")}, want: str("hello")},
	"base64encode":     {args: []cty.Value{str("hello")}, want: str("aGVsbG8=")},
	"base64gunzip":     {args: []cty.Value{str("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==")}, want: str("hello")},
	"base64gzip":       {args: []cty.Value{str("hello")}, want: str("H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==")},
	"csvdecode":        {args: []cty.Value{str("a,b\n1,2\n")}, want: list(obj(map[string]cty.Value{"a": str("1"), "b": str("2")}))},
	"fromjson":         {args: []cty.Value{str(`{"a":1}`)}, want: obj(map[string]cty.Value{"a": num(1)})},
	"jsondecode":       {args: []cty.Value{str(`{"a":1}`)}, want: obj(map[string]cty.Value{"a": num(1)})},
	"jsonencode":       {args: []cty.Value{obj(map[string]cty.Value{"a": num(1)})}, want: str(`{"a":1}`)},
	"textdecodebase64": {args: []cty.Value{str("SABpAA=="), str("UTF-16LE")}, want: str("Hi")},
	"textencodebase64": {args: []cty.Value{str("Hi"), str("UTF-16LE")}, want: str("SABpAA==")},
	"tojson":           {args: []cty.Value{obj(map[string]cty.Value{"a": num(1)})}, want: str(`{"a":1}`)},
	"ephemeralasnull":  {args: []cty.Value{str("a").Mark(values.Ephemeral)}, want: cty.NullVal(cty.String)},
	"urldecode":        {args: []cty.Value{str("a+b%26c")}, want: str("a b&c")},
	"urlencode":        {args: []cty.Value{str("a b&c")}, want: str("a+b%26c")},
	"yamldecode":       {args: []cty.Value{str("a: 1\n")}, want: obj(map[string]cty.Value{"a": num(1)})},
	"yamlencode":       {args: []cty.Value{obj(map[string]cty.Value{"a": num(1)})}, want: str("\"a\": 1\n")},

	// File system (relative to testdata).
	"abspath":        {args: []cty.Value{str("x/../y")}},
	"basename":       {args: []cty.Value{str("a/b.txt")}, want: str("b.txt")},
	"dirname":        {args: []cty.Value{str("a/b.txt")}, want: str("a")},
	"file":           {args: []cty.Value{str("hello.txt")}, want: str("Hello World")},
	"filebase64":     {args: []cty.Value{str("hello.txt")}, want: str("SGVsbG8gV29ybGQ=")},
	"fileexists":     {args: []cty.Value{str("hello.txt")}, want: cty.True},
	"fileset":        {args: []cty.Value{str("site"), str("*.md")}, want: cty.SetVal(strVals([]string{"README.md"}))},
	"pathexpand":     {args: []cty.Value{str("a/b")}, want: str("a/b")},
	"templatefile":   {args: []cty.Value{str("greeting.tmpl"), obj(map[string]cty.Value{"names": strs("ann"), "admin": cty.False})}, want: str("Hello, ANN!\nYou are a guest.\n")},
	"templatestring": {args: []cty.Value{str("Hi ${name}"), obj(map[string]cty.Value{"name": str("ann")})}, want: str("Hi ann")},

	// Date and time.
	"formatdate":    {args: []cty.Value{str("YYYY-MM-DD"), str("2024-02-03T04:05:06Z")}, want: str("2024-02-03")},
	"plantimestamp": {},
	"timeadd":       {args: []cty.Value{str("2024-02-03T04:05:06Z"), str("1h")}, want: str("2024-02-03T05:05:06Z")},
	"timecmp":       {args: []cty.Value{str("2024-02-03T04:05:06Z"), str("2024-02-03T05:05:06+01:00")}, want: num(0)},
	"timestamp":     {},

	// Hashes and crypto.
	"base64sha256":     {args: []cty.Value{str("hello")}, want: str("LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=")},
	"base64sha512":     {args: []cty.Value{str("hello")}, want: str("m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw==")},
	"bcrypt":           {args: []cty.Value{str("hello"), num(4)}},
	"filebase64sha256": {args: []cty.Value{str("hello.txt")}, want: str("pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=")},
	"filebase64sha512": {args: []cty.Value{str("hello.txt")}},
	"filemd5":          {args: []cty.Value{str("hello.txt")}, want: str("b10a8db164e0754105b7a99be72e3fe5")},
	"filesha1":         {args: []cty.Value{str("hello.txt")}},
	"filesha256":       {args: []cty.Value{str("hello.txt")}, want: str("a591a6d40bf420404a011733cfb7b190d62c65bf0bcda32b57b277d9ad9f146e")},
	"filesha512":       {args: []cty.Value{str("hello.txt")}},
	"md5":              {args: []cty.Value{str("hello")}, want: str("5d41402abc4b2a76b9719d911017c592")},
	"rsadecrypt":       {args: []cty.Value{str(rsaCiphertext), str(rsaKey)}, want: str("hunter2")},
	"sha1":             {args: []cty.Value{str("hello")}, want: str("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")},
	"sha256":           {args: []cty.Value{str("hello")}, want: str("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")},
	"sha512":           {args: []cty.Value{str("hello")}, want: str("9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043")},
	"uuid":             {},
	"uuidv5":           {args: []cty.Value{str("dns"), str("python.org")}, want: str("886313e1-3b8a-5372-9b90-0c9aee199e5d")},

	// IP networks.
	"cidrcontains": {args: []cty.Value{str("10.0.0.0/8"), str("10.1.2.3")}, want: cty.True},
	"cidrhost":     {args: []cty.Value{str("10.0.0.0/8"), num(2)}, want: str("10.0.0.2")},
	"cidrnetmask":  {args: []cty.Value{str("10.0.0.0/8")}, want: str("255.0.0.0")},
	"cidrsubnet":   {args: []cty.Value{str("10.0.0.0/8"), num(8), num(2)}, want: str("10.2.0.0/16")},
	"cidrsubnets":  {args: []cty.Value{str("10.0.0.0/8"), num(8), num(8)}, want: strs("10.0.0.0/16", "10.1.0.0/16")},

	// Types and secrets.
	"issensitive":  {args: []cty.Value{str("a")}, want: cty.False},
	"nonsensitive": {args: []cty.Value{str("a")}, want: str("a")},
	"secret":       {args: []cty.Value{str("a")}, want: secret(str("a"))},
	"sensitive":    {args: []cty.Value{str("a")}, want: secret(str("a"))},
	"tobool":       {args: []cty.Value{str("true")}, want: cty.True},
	"tolist":       {args: []cty.Value{tuple(str("a"))}, want: strs("a")},
	"tomap":        {args: []cty.Value{obj(map[string]cty.Value{"a": str("b")})}, want: cty.MapVal(map[string]cty.Value{"a": str("b")})},
	"tonumber":     {args: []cty.Value{str("1")}, want: num(1)},
	"toset":        {args: []cty.Value{tuple(str("a"))}, want: cty.SetVal(strVals([]string{"a"}))},
	"tostring":     {args: []cty.Value{num(1)}, want: str("1")},
	"unsecret":     {args: []cty.Value{str("a")}, want: str("a")},

	// Pulumi.
	"assetarchive":       {args: []cty.Value{obj(map[string]cty.Value{"a.txt": values.AssetVal(resource.NewTextAsset("a"))})}},
	"filearchive":        {args: []cty.Value{str("site")}},
	"fileasset":          {args: []cty.Value{str("hello.txt")}},
	"pulumiresourcename": {args: []cty.Value{site}, want: str("site").Mark(values.Dep{URN: "urn:pulumi:dev::web::aws:s3/bucket:Bucket::site"})},
	"pulumiresourcetype": {args: []cty.Value{site}, want: str("aws:s3/bucket:Bucket").Mark(values.Dep{URN: "urn:pulumi:dev::web::aws:s3/bucket:Bucket::site"})},
	"pulumiresourceurn":  {args: []cty.Value{site}, want: str("urn:pulumi:dev::web::aws:s3/bucket:Bucket::site").Mark(values.Dep{URN: "urn:pulumi:dev::web::aws:s3/bucket:Bucket::site"})},
	"remotearchive":      {args: []cty.Value{str("https://example.com/site.zip")}},
	"remoteasset":        {args: []cty.Value{str("https://example.com/index.html")}},
	"stringasset":        {args: []cty.Value{str("baﬄe")}},
}

// The exceptions to the call conventions checked by TestCallConventions, by
// function and argument index.
var (
	// Arguments that the sample call does not use, so that the result
	// stays known and unmarked.
	unusedArg = map[string]map[int]bool{
		"lookup": {2: true}, // the key is present: the default is not used
	}
	// Arguments whose type alone decides the result.
	typeDecides = map[string]map[int]bool{
		"keys": {0: true}, // an object's keys are known from its type
	}
	// Functions that reveal secrets or report on them.
	revealsSecrets = map[string]bool{"nonsensitive": true, "unsecret": true, "issensitive": true}
)

// TestCallConventions checks every function of the table against the rules
// of the library, by varying each argument of its sample call: an unknown
// or dynamically typed argument gives an unknown result (of a known type
// when only the value is unknown), a secret argument a secret result (even
// when the argument is also unknown), and a null argument no crash.
// TestCoreNamespace checks that Terraform's functions, and only they, are
// also core::<name>, as in OpenTofu (core::abs(-1) is 1).
func TestCoreNamespace(t *testing.T) {
	fns := Functions(Options{})
	pulumi := strings.Fields(`fileasset stringasset remoteasset filearchive remotearchive assetarchive
		pulumiresourcename pulumiresourcetype pulumiresourceurn fromjson tojson secret unsecret singleornone select`)
	for _, name := range documentedNames {
		_, core := fns["core::"+name]
		if want := !slices.Contains(pulumi, name); core != want {
			t.Errorf("core::%s in the table: %v, want %v", name, core, want)
		}
	}
	got, err := fns["core::abs"].Call([]cty.Value{num(-1)})
	if err != nil || !got.RawEquals(num(1)) {
		t.Errorf("core::abs(-1) = %#v, %v; want 1", got, err)
	}
}

func TestCallConventions(t *testing.T) {
	fns := testdataFunctions(t)
	for _, name := range sortedNames(fns) {
		if name == "try" || name == "can" || strings.HasPrefix(name, "core::") {
			continue // core::<name> is <name>: TestCoreNamespace
		}
		sample, ok := sampleCalls[name]
		if !ok {
			t.Errorf("no sample call of %q", name)
			continue
		}
		f := fns[name]
		t.Run(callName(name, sample.args), func(t *testing.T) {
			got, err := f.Call(sample.args)
			if err != nil {
				t.Fatalf("unexpected error: %s", err)
			}
			if sample.want != cty.NilVal && !got.RawEquals(sample.want) {
				t.Errorf("wrong result\ngot:  %#v\nwant: %#v", got, sample.want)
			}
			for i := range sample.args {
				checkVariant(t, f, name, sample.args, i, got.Type())
			}
		})
	}
}

func checkVariant(t *testing.T, f function.Function, name string, sample []cty.Value, i int, knownType cty.Type) {
	t.Helper()
	with := func(v cty.Value) []cty.Value {
		args := append([]cty.Value(nil), sample...)
		args[i] = v
		return args
	}
	ty := sample[i].Type()
	call := func(args []cty.Value) cty.Value {
		got, err := f.Call(args)
		if err != nil {
			t.Errorf("%s: unexpected error: %s", callName(name, args), err)
			return cty.DynamicVal
		}
		return got
	}
	unused := unusedArg[name][i]

	args := with(cty.UnknownVal(ty))
	if got := call(args); !unused && !typeDecides[name][i] && got.IsWhollyKnown() {
		t.Errorf("%s: wrong result\ngot:  %#v\nwant: an unknown value", callName(name, args), got)
	} else if knownType.TestConformance(got.Type()) != nil && !unused {
		t.Errorf("%s: wrong type\ngot:  %#v\nwant: %#v", callName(name, args), got.Type(), knownType)
	}

	args = with(cty.DynamicVal)
	if got := call(args); !unused && got.IsWhollyKnown() {
		t.Errorf("%s: wrong result\ngot:  %#v\nwant: an unknown value", callName(name, args), got)
	}

	for _, v := range []cty.Value{secret(sample[i]), secret(cty.UnknownVal(ty))} {
		args = with(v)
		got := call(args)
		if revealsSecrets[name] || unused {
			continue
		}
		if !got.HasMarkDeep(values.Secret) {
			t.Errorf("%s: wrong result\ngot:  %#v\nwant: a secret value", callName(name, args), got)
		}
	}

	args = with(cty.NullVal(ty))
	if _, err := f.Call(args); errors.As(err, new(function.PanicError)) {
		t.Errorf("%s: %s", callName(name, args), err)
	}
}

func TestImpureFunctionsInPreview(t *testing.T) {
	preview := Functions(Options{Preview: true})
	apply := Functions(Options{})
	for _, name := range []string{"timestamp", "uuid", "bcrypt"} {
		args := sampleCalls[name].args
		t.Run(callName(name, args), func(t *testing.T) {
			got, err := preview[name].Call(args)
			if err != nil {
				t.Fatal(err)
			}
			if want := cty.UnknownVal(cty.String).RefineNotNull(); !got.RawEquals(want) {
				t.Errorf("wrong result in preview\ngot:  %#v\nwant: %#v", got, want)
			}
			got, err = apply[name].Call(args)
			if err != nil {
				t.Fatal(err)
			}
			if !got.IsKnown() {
				t.Errorf("wrong result outside a preview\ngot:  %#v\nwant: a known string", got)
			}
		})
	}
	// plantimestamp is known in a preview, and the same in every call.
	first, _ := preview["plantimestamp"].Call(nil)
	second, _ := preview["plantimestamp"].Call(nil)
	if !first.IsKnown() || !first.RawEquals(second) {
		t.Errorf("wrong result\ngot:  %#v, then %#v\nwant: one known timestamp", first, second)
	}
}

func TestAbsPathIsAbsolute(t *testing.T) {
	got, err := testdataFunctions(t)["abspath"].Call([]cty.Value{str("x/../y")})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs("testdata/y")
	if got.AsString() != filepath.ToSlash(want) {
		t.Errorf("wrong result\ngot:  %#v\nwant: %#v", got, want)
	}
}

func Example() {
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"names": cty.ListVal([]cty.Value{cty.StringVal("web"), cty.StringVal("db")})},
		Functions: Functions(Options{BaseDir: "testdata", RootDir: "testdata"}),
	}
	expr, diags := hclsyntax.ParseExpression([]byte(`upper(join("-", names))`), "main.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		fmt.Println(diags)
		return
	}
	v, diags := expr.Value(ctx)
	fmt.Println(v.AsString(), diags.HasErrors())
	// Output: WEB-DB false
}

// The library as HCL programs see it: HCL converts arguments to the
// parameters' types and turns errors into diagnostics.
func TestThroughHCL(t *testing.T) {
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{"pending": cty.DynamicVal, "password": secret(str("pw"))},
		Functions: testdataFunctions(t),
	}
	tests := []hclTest{
		{src: `length("baﬄe 👍🏽")`, want: num(6)},
		{src: `alltrue([true, "true"])`, want: cty.True},
		{src: `setintersection(pending, ["a"])`, want: cty.UnknownVal(cty.Set(cty.String)).RefineNotNull()},
		{src: `jsonencode({user = "ann", password = password})`, want: secret(str(`{"password":"pw","user":"ann"}`))},
		{src: `templatefile("greeting.tmpl", {names = ["ﬄ"], admin = true})`, want: str("Hello, ﬄ!\nYou are an admin.\n")},
		{src: `file("../table.go")`, diag: `Invalid function argument: Invalid value for "path" parameter: path ../table.go is outside the project directory; use an absolute path to read files elsewhere.`},
		{src: `tonumber(password)`, diag: `Invalid function argument: Invalid value for "v" parameter: the value is not valid here; the details are hidden because it is secret.`},
		{src: `singleornone(["a", "b"])`, diag: `Invalid function argument: Invalid value for "list" parameter: expected a list of 0 or 1 elements, got 2.`},
	}
	runHCL(t, ctx, tests)
}

// hclTest is an HCL expression and its value or its one diagnostic.
type hclTest struct {
	src  string
	want cty.Value
	diag string // Summary: Detail
}

func runHCL(t *testing.T, ctx *hcl.EvalContext, tests []hclTest) {
	t.Helper()
	for _, test := range tests {
		t.Run(test.src, func(t *testing.T) {
			expr, diags := hclsyntax.ParseExpression([]byte(test.src), "test.hcl", hcl.InitialPos)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			got, diags := expr.Value(ctx)
			if test.diag != "" {
				if len(diags) != 1 || diags[0].Summary+": "+diags[0].Detail != test.diag {
					t.Fatalf("wrong diagnostics\ngot:  %v\nwant: %s", diags, test.diag)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if !got.RawEquals(test.want) {
				t.Errorf("wrong result\ngot:  %#v\nwant: %#v", got, test.want)
			}
		})
	}
}
