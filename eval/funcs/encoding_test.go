package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestEncodingFunctions(t *testing.T) {
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"base64encode": {
			{args: []cty.Value{str("baﬄe 👍🏽")}, want: str("YmHvrIRlIPCfkY3wn4+9")},
			{args: []cty.Value{str("")}, want: str("")},
			{args: []cty.Value{secret(str("hunter2"))}, want: secret(str("aHVudGVyMg=="))},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.UnknownVal(cty.String).RefineNotNull()},
			{args: []cty.Value{cty.NullVal(cty.String)}, err: "must not be null"},
		},
		"base64decode": {
			{args: []cty.Value{str("YmHvrIRlIPCfkY3wn4+9")}, want: str("baﬄe 👍🏽")},
			{args: []cty.Value{str("not base64!")}, err: "the string is not valid standard Base64 (illegal base64 data at input byte 3)"},
			{args: []cty.Value{str("//79")}, err: "the decoded bytes are not valid UTF-8 text; for text in another encoding use textdecodebase64"},
			{args: []cty.Value{secret(str("aHVudGVyMg=="))}, want: secret(str("hunter2"))},
			{args: []cty.Value{secret(str("not base64!"))}, err: "the details are hidden because it is secret"},
		},
		"base64gzip": {
			{args: []cty.Value{str("hello")}, want: str("H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA==")},
			{args: []cty.Value{secret(str("hello"))}, want: secret(str("H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="))},
		},
		"base64gunzip": {
			{args: []cty.Value{str("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA==")}, want: str("hello")},
			{args: []cty.Value{str("aGVsbG8=")}, err: "the decoded bytes are not gzip data"},
			{args: []cty.Value{secret(str("H4sIAAAAAAAAA8tIzcnJBwCGphA2BQAAAA=="))}, want: secret(str("hello"))},
		},
		"urlencode": {
			{args: []cty.Value{str("a b&c=d/ü")}, want: str("a+b%26c%3Dd%2F%C3%BC")},
			{args: []cty.Value{str("👍🏽")}, want: str("%F0%9F%91%8D%F0%9F%8F%BD")},
		},
		// Expected values from OpenTofu 1.12's console.
		"urldecode": {
			{args: []cty.Value{str("a%20b+c%2Fd")}, want: str("a b c/d")},
			{args: []cty.Value{str("%c3%a9")}, want: str("é")},
			{args: []cty.Value{str("")}, want: str("")},
			{args: []cty.Value{str("100%")}, err: `invalid URL escape "%"`},
			{args: []cty.Value{str("%E2%82%AC%2")}, err: `invalid URL escape "%2"`},
			{args: []cty.Value{secret(str("a+b"))}, want: secret(str("a b"))},
		},
		"textencodebase64": {
			{args: []cty.Value{str("Hi"), str("UTF-16LE")}, want: str("SABpAA==")},
			{args: []cty.Value{str("café"), str("windows-1252")}, want: str("Y2Fm6Q==")},
			{args: []cty.Value{str("👍"), str("ISO-8859-1")}, err: "the string has characters that ISO-8859-1 cannot represent"},
			{args: []cty.Value{str("a"), str("klingon")}, err: `"klingon" is not a supported IANA character encoding name`},
			{args: []cty.Value{secret(str("Hi")), str("UTF-16LE")}, want: secret(str("SABpAA=="))},
		},
		"textdecodebase64": {
			{args: []cty.Value{str("Y2Fm6Q=="), str("windows-1252")}, want: str("café")},
			{args: []cty.Value{str("PdhN3A=="), str("UTF-16LE")}, want: str("👍")},
			{args: []cty.Value{str("!"), str("UTF-16LE")}, err: "not valid standard Base64"},
			{args: []cty.Value{str("SABpAA=="), str("klingon")}, err: "not a supported IANA character encoding name"},
		},
		"jsonencode": {
			{args: []cty.Value{obj(map[string]cty.Value{"ü": tuple(num(1), cty.True, cty.NullVal(cty.String))})}, want: str(`{"ü":[1,true,null]}`)},
			{args: []cty.Value{obj(map[string]cty.Value{"a": secret(str("s"))})}, want: secret(str(`{"a":"s"}`))},
		},
		"tojson": {
			{args: []cty.Value{obj(map[string]cty.Value{"a": secret(str("s"))})}, want: secret(str(`{"a":"s"}`))},
		},
		"jsondecode": {
			{args: []cty.Value{str(`{"a":[1,"👍🏽"]}`)}, want: obj(map[string]cty.Value{"a": tuple(num(1), str("👍🏽"))})},
			{args: []cty.Value{str(`{"a":`)}, err: "EOF"},
			{args: []cty.Value{secret(str(`{"password":"hunter2"`))}, err: "the details are hidden because an argument is secret"},
		},
		"fromjson": {
			{args: []cty.Value{secret(str(`[1]`))}, want: secret(tuple(num(1)))},
		},
		"yamlencode": {
			{args: []cty.Value{obj(map[string]cty.Value{"name": str("baﬄe"), "tags": strs("a")})}, want: str("\"name\": \"baﬄe\"\n\"tags\":\n- \"a\"\n")},
			{args: []cty.Value{secret(str("s"))}, want: secret(str("\"s\"\n"))},
		},
		"yamldecode": {
			{args: []cty.Value{str("name: baﬄe\nsize: 1\n")}, want: obj(map[string]cty.Value{"name": str("baﬄe"), "size": num(1)})},
			{args: []cty.Value{str("a: [")}, err: "did not find expected node content"},
			{args: []cty.Value{secret(str("password: [hunter2"))}, err: "the details are hidden because an argument is secret"},
			{args: []cty.Value{cty.UnknownVal(cty.String)}, want: cty.DynamicVal},
		},
		"csvdecode": {
			{args: []cty.Value{str("name,size\nﬄ,1\n")}, want: list(obj(map[string]cty.Value{"name": str("ﬄ"), "size": str("1")}))},
			{args: []cty.Value{str("a,b\n1\n")}, err: "wrong number of fields"},
		},
	})
}
