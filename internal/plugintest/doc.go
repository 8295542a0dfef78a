// Package plugintest helps test the gRPC side of Cairn with real plugin
// processes, without any Pulumi installation.
//
// KV is a small provider (package "kv" by default) that keeps its resources
// as JSON files in a folder, a cloud that tests can look at and change
// behind Cairn's back; its inputs can also make it crash, hang or fail. The
// test binary itself plays the plugins: Main, called from TestMain, runs a
// Role instead of the tests when the binary was started through a link
// named after the role (see Link), so one binary is the tests, the
// provider plugins, Cairn's "plugin serve" command and a minimal language
// host.
//
//	func TestMain(m *testing.M) {
//		plugintest.Main(m, plugintest.ProviderRole("kv", false), plugintest.LanguageHostRole("gotest"))
//	}
//
//	plugintest.Link(t, filepath.Join(dir, "resource-kv-v1.0.0"), "pulumi-resource-kv")
package plugintest
