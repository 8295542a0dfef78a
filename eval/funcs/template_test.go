package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestTemplateFunctions(t *testing.T) {
	_, fns := project(t, map[string]string{
		"outside.txt":                        "outside",
		"root/modules/app/greeting.tmpl":     "%{ for name in names ~}\nHello, ${upper(name)}!\n%{ endfor ~}\n%{ if admin }You are an admin.%{ else }You are a guest.%{ endif }\n",
		"root/modules/app/value.tmpl":        "${n}",
		"root/modules/app/broken.tmpl":       "Hello ${",
		"root/modules/app/recursive.tmpl":    `${templatefile("recursive.tmpl", {})}`,
		"root/modules/app/nested.tmpl":       `(${templatefile("value.tmpl", { n = templatestring(t, { n = n }) })})`,
		"root/modules/app/escape.tmpl":       `${file("../../../outside.txt")}`,
		"root/modules/app/file.tmpl":         `${file("greeting.tmpl") != "" ? "read" : "empty"}`,
		"root/modules/app/password.tmpl":     "user=${user}%{ if show } password=${password}%{ endif }",
		"root/modules/app/binary.tmpl":       "\xff",
		"root/modules/app/unicode/baﬄe.tmpl": "${length(s)} ${strrev(s)}",
	})
	vars := func(kv ...any) cty.Value {
		attrs := map[string]cty.Value{}
		for i := 0; i < len(kv); i += 2 {
			attrs[kv[i].(string)] = kv[i+1].(cty.Value)
		}
		return obj(attrs)
	}
	names := strs("ann", "bob")
	runFamily(t, fns, map[string][]callTest{
		"templatefile": {
			{args: []cty.Value{str("greeting.tmpl"), vars("names", names, "admin", cty.True)}, want: str("Hello, ANN!\nHello, BOB!\nYou are an admin.\n")},
			{args: []cty.Value{str("greeting.tmpl"), cty.MapVal(map[string]cty.Value{"names": str("x"), "admin": str("false")})}, err: "Iteration over non-iterable value"},
			{args: []cty.Value{str("value.tmpl"), vars("n", num(42))}, want: num(42)},
			{args: []cty.Value{str("unicode/baﬄe.tmpl"), vars("s", str("👍🏽ﬄ"))}, want: str("2 ﬄ👍🏽")},
			{args: []cty.Value{str("greeting.tmpl"), vars("names", names)}, err: `vars has no "admin", which the template uses at greeting.tmpl:4,7; add it to vars`},
			{args: []cty.Value{str("greeting.tmpl"), str("x")}, err: "vars must be an object or a map of the template's variables, not string"},
			{args: []cty.Value{str("value.tmpl"), vars("n", num(1), "1n", num(2))}, err: `"1n" cannot be a template variable`},
			{args: []cty.Value{str("broken.tmpl"), vars()}, err: "the template is not valid: broken.tmpl:1,"},
			{args: []cty.Value{str("binary.tmpl"), vars()}, err: "the contents are not valid UTF-8"},
			// OpenTofu renders templates in templates, to a depth.
			{args: []cty.Value{str("nested.tmpl"), vars("t", str("<${n}>"), "n", num(7))}, want: str("(<7>)")},
			{args: []cty.Value{str("recursive.tmpl"), vars()}, err: "templates render templates more than 1024 deep"},
			{args: []cty.Value{str("escape.tmpl"), vars()}, err: "path ../../../outside.txt is outside the project directory"},
			{args: []cty.Value{str("file.tmpl"), vars()}, want: str("read")},
			{args: []cty.Value{str("../../../outside.txt"), vars()}, err: "outside the project directory"},
			{args: []cty.Value{str("missing.tmpl"), vars()}, err: "no file exists at missing.tmpl"},
			// Only a template that uses a secret renders secret (HCL
			// counts both results of a conditional as used).
			{args: []cty.Value{str("value.tmpl"), vars("n", num(1), "password", secret(str("pw")))}, want: num(1)},
			{args: []cty.Value{str("password.tmpl"), vars("user", str("ann"), "show", cty.False, "password", secret(str("pw")))}, want: secret(str("user=ann"))},
			{args: []cty.Value{str("password.tmpl"), vars("user", str("ann"), "show", cty.True, "password", secret(str("pw")))}, want: secret(str("user=ann password=pw"))},
			{args: []cty.Value{str("password.tmpl"), secret(vars("user", str("ann"), "show", cty.False, "password", str("pw")))}, want: secret(str("user=ann"))},
			{args: []cty.Value{str("value.tmpl"), vars("n", cty.UnknownVal(cty.Number))}, want: cty.UnknownVal(cty.Number)},
			{args: []cty.Value{str("greeting.tmpl"), cty.DynamicVal}, want: cty.DynamicVal},
			{args: []cty.Value{str("greeting.tmpl"), secret(cty.DynamicVal)}, want: secret(cty.DynamicVal)},
			{args: []cty.Value{cty.UnknownVal(cty.String), vars()}, want: cty.DynamicVal},
			{args: []cty.Value{str("greeting.tmpl"), cty.NullVal(cty.EmptyObject)}, err: "must not be null"},
		},
		"templatestring": {
			{args: []cty.Value{str("Hi ${name}%{ if admin } (admin)%{ endif }"), vars("name", str("ﬄ"), "admin", cty.True)}, want: str("Hi ﬄ (admin)")},
			{args: []cty.Value{str("${templatefile(\"value.tmpl\", {n = 1})}!"), vars()}, want: str("1!")},
			{args: []cty.Value{str("${templatestring(t, {t = t})}"), vars("t", str("${templatestring(t, {t = t})}"))}, err: "templates render templates more than 1024 deep"},
			{args: []cty.Value{str("${core::templatestring(\"[${x}]\", {x = x})}"), vars("x", num(1))}, want: str("[1]")},
			{args: []cty.Value{str("${templatestring(\"${x}!\", {x = x})}"), vars("x", str("👍🏽"))}, want: str("👍🏽!")},
			{args: []cty.Value{secret(str("${x}")), vars("x", str("a"))}, want: secret(str("a"))},
			{args: []cty.Value{str("${x}"), vars()}, err: `vars has no "x", which the template uses at <templatestring>:1,3`},
			// OpenTofu 1.12's console: "outer[hi ann]", "a=1;b=x;" and a
			// sensitive value.
			{args: []cty.Value{str("outer[${templatestring(inner, {name = name})}]"), vars("inner", str("hi ${name}"), "name", str("ann"))}, want: str("outer[hi ann]")},
			{args: []cty.Value{str("%{ for k, v in m }${k}=${v};%{ endfor }"), vars("m", obj(map[string]cty.Value{"a": num(1), "b": str("x")}))}, want: str("a=1;b=x;")},
			{args: []cty.Value{str("hi ${name}"), vars("name", secret(str("s")))}, want: secret(str("hi s"))},
		},
	})
}
