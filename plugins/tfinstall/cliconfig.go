package tfinstall

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// cliConfig is what provider installation takes from the Terraform CLI
// configuration.
type cliConfig struct {
	files          []string // the files read
	pluginCacheDir string
	cacheMayBreak  bool // plugin_cache_may_break_dependency_lock_file
	// installation is the provider_installation block; nil when there is
	// none, and the implied methods apply.
	installation *installation
	credentials  map[tfaddr.Host]string         // the token
	hosts        map[tfaddr.Host]map[string]any // service id to URL
}

type installation struct {
	at           string // file:line:column
	methods      []method
	devOverrides map[Provider]string
}

// method is one of provider_installation's methods.
type method struct {
	kind     string // "direct", "filesystem_mirror" or "network_mirror"
	location string // the mirror's path or URL
	include  []pattern
	exclude  []pattern
	retries  int // download_retry_count; -1 when unset
	at       string
}

// loadCLIConfig reads the CLI configuration as OpenTofu does: the file
// given, else TF_CLI_CONFIG_FILE (or TERRAFORM_CONFIG), else the first of
// ~/.tofurc, ~/.terraformrc and $XDG_CONFIG_HOME/opentofu/tofurc that
// exists, plus every *.tfrc and *.tfrc.json in the configuration folder
// (~/.terraform.d, or $XDG_CONFIG_HOME/opentofu) unless a file was named.
// A file the environment names that does not exist is only warned of, as
// OpenTofu does. TF_PLUGIN_CACHE_DIR overrides plugin_cache_dir.
func loadCLIConfig(file string, log func(string, ...any)) (*cliConfig, error) {
	cfg := &cliConfig{credentials: map[tfaddr.Host]string{}, hosts: map[tfaddr.Host]map[string]any{}}
	var files []string
	switch env := firstEnv("TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG"); {
	case file != "":
		if _, err := os.Stat(file); err != nil {
			return nil, fmt.Errorf("the CLI configuration file: %w", err)
		}
		files = []string{file}
	case env != "":
		if _, err := os.Stat(env); err != nil {
			log("the CLI configuration file TF_CLI_CONFIG_FILE names cannot be read, so none is used: %v", err)
		} else {
			files = []string{env}
		}
	default:
		files = defaultCLIConfigFiles()
	}
	for _, f := range files {
		if err := cfg.read(f); err != nil {
			return nil, err
		}
	}
	if dir := os.Getenv("TF_PLUGIN_CACHE_DIR"); dir != "" {
		cfg.pluginCacheDir = dir
	}
	if v := os.Getenv("TF_PLUGIN_CACHE_MAY_BREAK_DEPENDENCY_LOCK_FILE"); v != "" && v != "0" {
		cfg.cacheMayBreak = true
	}
	return cfg, nil
}

// firstEnv returns the first of the environment variables named that is
// set and not empty.
func firstEnv(names ...string) string {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return v
		}
	}
	return ""
}

// defaultCLIConfigFiles lists the CLI configuration files that exist in
// the places OpenTofu looks when no file is named.
func defaultCLIConfigFiles() []string {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	xdgConfig := os.Getenv("XDG_CONFIG_HOME")
	if xdgConfig == "" {
		xdgConfig = filepath.Join(home, ".config")
	}
	main := []string{filepath.Join(home, ".tofurc"), filepath.Join(home, ".terraformrc"), filepath.Join(xdgConfig, "opentofu", "tofurc")}
	dir := filepath.Join(home, ".terraform.d")
	if runtime.GOOS == "windows" {
		appData := os.Getenv("APPDATA")
		main = []string{filepath.Join(appData, "tofu.rc"), filepath.Join(appData, "terraform.rc")}
		dir = filepath.Join(appData, "terraform.d")
	}
	var files []string
	for _, f := range main {
		if isFile(f) {
			files = append(files, f)
			break
		}
	}
	if !isDir(dir) && os.Getenv("XDG_CONFIG_HOME") != "" {
		dir = filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "opentofu")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && (strings.HasSuffix(name, ".tfrc") || strings.HasSuffix(name, ".tfrc.json")) {
			files = append(files, filepath.Join(dir, name))
		}
	}
	return files
}

func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

var cliConfigSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "plugin_cache_dir"}, {Name: "plugin_cache_may_break_dependency_lock_file"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "credentials", LabelNames: []string{"host"}},
		{Type: "host", LabelNames: []string{"host"}},
		{Type: "provider_installation"},
	},
}

// read merges the CLI configuration file at path into cfg. Settings Cairn
// has no use for (disable_checkpoint, credentials_helper, ...) are left
// alone.
func (cfg *cliConfig) read(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading the CLI configuration: %w", err)
	}
	parser := hclparse.NewParser()
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(path, ".json") {
		f, diags = parser.ParseJSON(src, path)
	} else {
		f, diags = parser.ParseHCL(devOverridesAsAttribute(src, path), path)
	}
	if diags.HasErrors() {
		return diagError(diags)
	}
	content, _, diags := f.Body.PartialContent(cliConfigSchema)
	if diags.HasErrors() {
		return diagError(diags)
	}
	cfg.files = append(cfg.files, path)
	if a := content.Attributes["plugin_cache_dir"]; a != nil && cfg.pluginCacheDir == "" {
		var dir string
		if diags := gohcl.DecodeExpression(a.Expr, nil, &dir); diags.HasErrors() {
			return diagError(diags)
		}
		cfg.pluginCacheDir = os.ExpandEnv(dir)
	}
	if a := content.Attributes["plugin_cache_may_break_dependency_lock_file"]; a != nil {
		var on bool
		if diags := gohcl.DecodeExpression(a.Expr, nil, &on); diags.HasErrors() {
			return diagError(diags)
		}
		cfg.cacheMayBreak = cfg.cacheMayBreak || on
	}
	for _, b := range content.Blocks {
		var err error
		switch b.Type {
		case "credentials":
			err = cfg.readCredentials(b)
		case "host":
			err = cfg.readHost(b)
		case "provider_installation":
			if cfg.installation != nil {
				return fmt.Errorf("%s: a second provider_installation block; the CLI configuration may hold one, and the first is at %s", position(b.DefRange), cfg.installation.at)
			}
			cfg.installation, err = readInstallation(b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (cfg *cliConfig) readCredentials(b *hcl.Block) error {
	host, err := tfaddr.ParseHost(b.Labels[0])
	if err != nil {
		return fmt.Errorf("%s: credentials block: %v", position(b.LabelRanges[0]), err)
	}
	content, _, diags := b.Body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "token"}}})
	if diags.HasErrors() {
		return diagError(diags)
	}
	a := content.Attributes["token"]
	if a == nil {
		return nil // other kinds of credentials are not bearer tokens
	}
	var token string
	if diags := gohcl.DecodeExpression(a.Expr, nil, &token); diags.HasErrors() {
		return diagError(diags)
	}
	cfg.credentials[host] = token
	return nil
}

func (cfg *cliConfig) readHost(b *hcl.Block) error {
	host, err := tfaddr.ParseHost(b.Labels[0])
	if err != nil {
		return fmt.Errorf("%s: host block: %v", position(b.LabelRanges[0]), err)
	}
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "services", Required: true}}})
	if diags.HasErrors() {
		return diagError(diags)
	}
	expr := content.Attributes["services"].Expr
	val, diags := expr.Value(nil)
	if diags.HasErrors() {
		return diagError(diags)
	}
	if !val.CanIterateElements() || val.Type().IsListType() || val.Type().IsTupleType() || val.Type().IsSetType() {
		return fmt.Errorf("%s: services must be an object of service ids and URLs", position(expr.Range()))
	}
	// Services other than URLs (login.v1 is an object) are no concern here.
	services := map[string]any{}
	for it := val.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if v.Type() == cty.String && !v.IsNull() {
			services[k.AsString()] = v.AsString()
		}
	}
	cfg.hosts[host] = services
	return nil
}

var installationSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "dev_overrides"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "direct"}, {Type: "filesystem_mirror"}, {Type: "network_mirror"}, {Type: "oci_mirror"},
	},
}

func readInstallation(b *hcl.Block) (*installation, error) {
	in := &installation{at: position(b.DefRange), devOverrides: map[Provider]string{}}
	content, diags := b.Body.Content(installationSchema)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	for _, mb := range content.Blocks {
		m, err := readMethod(mb)
		if err != nil {
			return nil, err
		}
		in.methods = append(in.methods, m)
	}
	if a := content.Attributes["dev_overrides"]; a != nil {
		if len(content.Blocks) > 0 && content.Blocks[0].DefRange.Start.Byte < a.Range.Start.Byte {
			return nil, fmt.Errorf("%s: dev_overrides must come before the other installation methods: development overrides always take precedence", position(a.Range))
		}
		pairs, diags := hcl.ExprMap(a.Expr)
		if diags.HasErrors() {
			return nil, diagError(diags)
		}
		for _, kv := range pairs {
			var src, dir string
			if diags := append(gohcl.DecodeExpression(kv.Key, nil, &src), gohcl.DecodeExpression(kv.Value, nil, &dir)...); diags.HasErrors() {
				return nil, diagError(diags)
			}
			p, err := tfaddr.ParseProvider(src)
			if err != nil {
				return nil, fmt.Errorf("%s: dev_overrides: %v", position(kv.Key.Range()), err)
			}
			in.devOverrides[p] = filepath.Clean(dir)
		}
	}
	return in, nil
}

func readMethod(b *hcl.Block) (method, error) {
	m := method{kind: b.Type, retries: -1, at: position(b.DefRange)}
	attrs := []hcl.AttributeSchema{{Name: "include"}, {Name: "exclude"}}
	switch b.Type {
	case "direct":
		attrs = append(attrs, hcl.AttributeSchema{Name: "download_retry_count"})
	case "filesystem_mirror":
		attrs = append(attrs, hcl.AttributeSchema{Name: "path", Required: true})
	case "network_mirror":
		attrs = append(attrs, hcl.AttributeSchema{Name: "url", Required: true}, hcl.AttributeSchema{Name: "download_retry_count"})
	case "oci_mirror":
		return m, fmt.Errorf("%s: Cairn does not install providers from OCI mirrors; use a network_mirror or filesystem_mirror, or direct", m.at)
	}
	content, diags := b.Body.Content(&hcl.BodySchema{Attributes: attrs})
	if diags.HasErrors() {
		return m, diagError(diags)
	}
	decode := func(name string, into any) error {
		a := content.Attributes[name]
		if a == nil {
			return nil
		}
		if diags := gohcl.DecodeExpression(a.Expr, nil, into); diags.HasErrors() {
			return diagError(diags)
		}
		return nil
	}
	var include, exclude []string
	var location string
	err := errors.Join(decode("include", &include), decode("exclude", &exclude), decode("path", &location), decode("url", &location), decode("download_retry_count", &m.retries))
	if err != nil {
		return m, err
	}
	m.location = location
	if m.include, err = parsePatterns(include); err != nil {
		return m, fmt.Errorf("%s: include: %v", m.at, err)
	}
	if m.exclude, err = parsePatterns(exclude); err != nil {
		return m, fmt.Errorf("%s: exclude: %v", m.at, err)
	}
	if b.Type == "network_mirror" && !strings.HasPrefix(location, "https://") {
		return m, fmt.Errorf("%s: network_mirror url %q must be an https:// URL", m.at, location)
	}
	return m, nil
}

// devOverridesAsAttribute lets HCL 2 read dev_overrides written as
// Terraform's HCL 1 configuration writes it, a block of quoted keys
// (dev_overrides { "hashicorp/null" = "/dir" }), which HCL 2 reads only as
// an object: the space before the brace becomes "=", so that positions in
// error messages do not move.
func devOverridesAsAttribute(src []byte, filename string) []byte {
	toks, diags := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return src // the parser will report it
	}
	var out []byte
	last := 0
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Type != hclsyntax.TokenIdent || string(toks[i].Bytes) != "dev_overrides" || toks[i+1].Type != hclsyntax.TokenOBrace {
			continue
		}
		if i > 0 && toks[i-1].Type != hclsyntax.TokenNewline && toks[i-1].Type != hclsyntax.TokenOBrace {
			continue
		}
		brace := toks[i+1].Range.Start.Byte
		cut := brace
		if src[brace-1] == ' ' || src[brace-1] == '\t' {
			cut--
		}
		out = append(append(out, src[last:cut]...), '=')
		last = brace
	}
	if out == nil {
		return src
	}
	return append(out, src[last:]...)
}

// pattern is an include or exclude pattern: hostname/namespace/type, each
// part a name or *; namespace/type means the default registry.
type pattern [3]string

func parsePatterns(ss []string) ([]pattern, error) {
	var ps []pattern
	for _, s := range ss {
		parts := strings.Split(strings.ToLower(s), "/")
		if len(parts) == 2 {
			parts = append([]string{tfaddr.DefaultHost.String()}, parts...)
		}
		if len(parts) != 3 || slices.Contains(parts, "") {
			return nil, fmt.Errorf("%q is not a pattern of the form [hostname/]namespace/type, where each part may be *", s)
		}
		if parts[0] != "*" {
			host, err := tfaddr.ParseHost(parts[0])
			if err != nil {
				return nil, fmt.Errorf("%q: %v", s, err)
			}
			parts[0] = host.String()
		}
		ps = append(ps, pattern{parts[0], parts[1], parts[2]})
	}
	return ps, nil
}

func (pt pattern) matches(p Provider) bool {
	for i, part := range []string{p.Hostname.String(), p.Namespace, p.Type} {
		if pt[i] != "*" && pt[i] != part {
			return false
		}
	}
	return true
}

// covers reports whether m installs p: included (everything is when the
// method has no include) and not excluded.
func (m method) covers(p Provider) bool {
	included := len(m.include) == 0
	for _, pt := range m.include {
		included = included || pt.matches(p)
	}
	for _, pt := range m.exclude {
		if pt.matches(p) {
			return false
		}
	}
	return included
}
