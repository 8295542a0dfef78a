package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
	"github.com/cairn-iac/cairn/lang/yaml"
)

func configCommand() *cli.Command {
	pathFlag := &cli.BoolFlag{Name: "path", Usage: "treat the key as a property path (tags.env, names[0]) into a structured value"}
	return &cli.Command{
		Name:  "config",
		Usage: "set, get and remove the stack's configuration",
		Description: `Configuration lives in Pulumi.<stack>.yaml beside the project. Keys are
<project>:<key> (a bare key belongs to the project) or <package>:<key> for a
provider (aws:region). Secret values are encrypted with the stack's passphrase.`,
		UsageText: "cairn config\ncairn config set region us-east-1\ncairn config set dbPassword hunter2 --secret\ncairn config set --path tags.env prod",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "show-secrets", Usage: "show secret values in plaintext"},
			&cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print JSON"},
		},
		Action: configList,
		Subcommands: []*cli.Command{
			{
				Name: "set", Usage: "set a configuration value", ArgsUsage: "KEY VALUE",
				UsageText: "cairn config set region us-east-1\ncairn config set aws:region eu-west-1\ncairn config set token abc --secret",
				Flags:     []cli.Flag{&cli.BoolFlag{Name: "secret", Usage: "encrypt the value (a key the program declares secret always is)"}, pathFlag},
				Action:    configSet,
			},
			{
				Name: "get", Usage: "print a configuration value", ArgsUsage: "KEY",
				UsageText: "cairn config get region",
				Flags:     []cli.Flag{pathFlag, &cli.BoolFlag{Name: "json", Aliases: []string{"j"}, Usage: "print JSON"}},
				Action:    configGet,
			},
			{
				Name: "rm", Usage: "remove a configuration value", ArgsUsage: "KEY",
				UsageText: "cairn config rm region",
				Flags:     []cli.Flag{pathFlag},
				Action:    configRm,
			},
		},
	}
}

// configSession opens the session and the selected stack's configuration.
// configKey opens the stack's configuration and parses the key argument.
func configKey(c *cli.Context) (*session, *workspace.StackConfig, string, workspace.Key, error) {
	key := c.Args().First()
	s, cfg, err := configSession(c)
	if err != nil {
		return nil, nil, "", workspace.Key{}, err
	}
	k, err := workspace.ParseKey(s.project.Name, key, c.Bool("path"))
	return s, cfg, key, k, err
}

func configSession(c *cli.Context) (*session, *workspace.StackConfig, error) {
	s, err := stackSession(c)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := s.stackConfig()
	return s, cfg, err
}

func configSet(c *cli.Context) error {
	s, cfg, err := configSession(c)
	if err != nil {
		return err
	}
	key, err := workspace.ParseKey(s.project.Name, c.Args().Get(0), c.Bool("path"))
	if err != nil {
		return err
	}
	typed, secret := c.Args().Get(0), c.Bool("secret")
	if !secret {
		if at := s.declaredSecret(key.Name); at != "" {
			secret = true
			fmt.Fprintf(s.stderr, "%s is declared secret at %s, so its value is stored encrypted\n", typed, at)
		} else if workspace.LooksLikeCredential(key) {
			s.warn(fmt.Sprintf("%s looks like a credential but is stored in plaintext in %s; "+
				"to encrypt it, set it again with --secret: cairn config set %s <value> --secret",
				typed, filepath.Base(cfg.Path), typed))
		}
	}
	var crypter workspace.Crypter
	if secret {
		sm, err := s.secrets(cfg)
		if err != nil {
			return err
		}
		crypter = sm
	}
	if err := cfg.Set(key, c.Args().Get(1), secret, crypter); err != nil {
		return err
	}
	return cfg.Save()
}

// declaredSecret returns where the project's program declares the
// configuration key secret (a Pulumi YAML config entry with secret: true,
// an HCL variable with sensitive = true) as file:line:column, or "". A
// program that does not load declares nothing.
func (s *session) declaredSecret(key string) string {
	var prog *eval.Program
	switch s.project.Runtime {
	case "yaml":
		prog, _ = yaml.Load(s.project.Dir, yaml.Options{})
	case "hcl":
		prog, _ = langhcl.Load(s.project.Dir, langhcl.Options{Project: s.project.Name, ProgramDir: s.project.ProgramDir()})
	}
	if prog == nil || prog.Root == nil {
		return ""
	}
	for _, n := range prog.Root.Nodes {
		if c, ok := n.(*eval.Config); ok && (c.Secret || c.Ephemeral) && c.FullKey(s.project.Name) == key {
			r := c.NameRange
			if file, err := filepath.Rel(s.project.Dir, r.Filename); err == nil {
				r.Filename = file
			}
			return eval.RangeString(r)
		}
	}
	return ""
}

func configGet(c *cli.Context) error {
	s, cfg, key, k, err := configKey(c)
	if err != nil {
		return err
	}
	crypter, err := s.crypterFor(cfg)
	if err != nil {
		return err
	}
	v, ok, err := cfg.Get(k, crypter)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("configuration key %q is not set for stack %q; set it with `cairn config set %s <value>`", key, s.stack, key)
	}
	if c.Bool("json") {
		return writeJSON(s.stdout, v.ToGo())
	}
	fmt.Fprintln(s.stdout, outputText(v.ToGo()))
	return nil
}

// crypterFor returns the stack's secrets manager when its configuration holds
// secrets (so reading plain values needs no passphrase).
func (s *session) crypterFor(cfg *workspace.StackConfig) (workspace.Crypter, error) {
	if !cfg.HasSecrets() {
		return nil, nil
	}
	return s.secrets(cfg)
}

func configRm(c *cli.Context) error {
	s, cfg, key, k, err := configKey(c)
	if err != nil {
		return err
	}
	if !cfg.Remove(k) {
		return fmt.Errorf("configuration key %q is not set for stack %q", key, s.stack)
	}
	return cfg.Save()
}

func configList(c *cli.Context) error {
	s, cfg, err := configSession(c)
	if err != nil {
		return err
	}
	show := c.Bool("show-secrets")
	var crypter workspace.Crypter
	if show {
		if crypter, err = s.crypterFor(cfg); err != nil {
			return err
		}
	}
	values := map[string]any{}
	for _, k := range cfg.Keys() {
		v, _, err := cfg.Get(workspace.Key{Name: k}, crypter)
		if err != nil && show {
			return err
		}
		if err != nil || (!show && v.ContainsSecrets()) {
			values[k] = "[secret]"
			continue
		}
		values[k] = v.ToGo()
	}
	if c.Bool("json") {
		return writeJSON(s.stdout, values)
	}
	w := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "KEY\tVALUE")
	for _, k := range cfg.Keys() {
		// The project's own keys are shown bare, as Pulumi does.
		fmt.Fprintf(w, "%s\t%s\n", strings.TrimPrefix(k, s.project.Name+":"), outputText(values[k]))
	}
	return w.Flush()
}
