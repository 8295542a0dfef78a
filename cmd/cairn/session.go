package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/display"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/engine/workspace"
	langhcl "github.com/cairn-iac/cairn/lang/hcl"
)

// session is what one command invocation works with: the project, the stack,
// the backend, and how to talk to the user.
type session struct {
	c       *cli.Context
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	home    string
	cwd     string
	project *workspace.Project
	backend backend.Backend
	// stack is the stack the command operates on; set by useStack.
	stack string
	// vars are the command's -var and -var-file flags, in order.
	vars []langhcl.VarArg
	// passphrase is the one secrets opened the stack's secrets with.
	passphrase string
}

// newSession finds CAIRN_HOME, the project (when needProject) and opens the
// backend.
func newSession(c *cli.Context, needProject bool) (*session, error) {
	s := &session{c: c, stdin: c.App.Reader, stdout: c.App.Writer, stderr: c.App.ErrWriter}
	var err error
	if s.home, err = cairnHome(); err != nil {
		return nil, err
	}
	s.cwd = global(c, "cwd")
	if s.cwd == "" {
		s.cwd = "."
	}
	if info, err := os.Stat(s.cwd); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("--cwd %s is not a directory", s.cwd)
	}
	if needProject {
		p, err := workspace.LoadProject(s.cwd)
		if err != nil {
			return nil, err
		}
		s.project = p
	}
	url, err := s.backendURL()
	if err != nil {
		return nil, err
	}
	b, err := openBackend(c.Context, url, s.warn)
	if err != nil {
		return nil, err
	}
	s.backend = b
	return s, nil
}

// cairnHome returns where Cairn keeps its files: $CAIRN_HOME, or ~/.cairn.
func cairnHome() (string, error) {
	if home := os.Getenv("CAIRN_HOME"); home != "" {
		return home, nil
	}
	h, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find a home directory for Cairn's files; set CAIRN_HOME: %w", err)
	}
	return filepath.Join(h, ".cairn"), nil
}

func (s *session) warn(msg string) { fmt.Fprintln(s.stderr, "warning:", msg) }

// interactive reports whether the user can be asked questions: stdin and
// stdout are terminals and --non-interactive was not given.
func (s *session) interactive() bool {
	return !globalBool(s.c, "non-interactive") && isTerminal(s.stdin) && isTerminal(s.stdout)
}

func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// color decides whether to colour output (see display.ColorEnabled).
func (s *session) color() (bool, error) {
	return display.ColorEnabled(global(s.c, "color"), isTerminal(s.stdout))
}

// ref names a stack of the session's project, by its resolved name.
func (s *session) ref(stack string) backend.StackRef {
	return backend.StackRef{Project: s.project.Name, Name: stack}
}

// parseRef reads a stack name given by the user: "dev" or "org/project/dev".
func (s *session) parseRef(name string) (backend.StackRef, error) {
	return backend.ParseStackRef(s.project.Name, name)
}

// useStack resolves the stack the command works on, which must exist:
// --stack, else the project's selected stack. Only `cairn stack init` and
// `cairn stack select --create` create stacks.
func (s *session) useStack() error {
	ref, err := s.namedRef()
	if err != nil {
		return err
	}
	exists, err := s.stackExists(ref)
	if err != nil {
		return err
	}
	if !exists {
		return notFound(ref)
	}
	s.stack = ref.Name
	return nil
}

// namedRef names the stack the command works on, whether it exists or not:
// --stack, else the project's selected stack.
func (s *session) namedRef() (backend.StackRef, error) {
	name := global(s.c, "stack")
	if name == "" {
		sel, err := workspace.SelectedStack(s.home, s.project)
		if err != nil {
			return backend.StackRef{}, err
		}
		if sel == "" {
			return backend.StackRef{}, errors.New("no stack is selected; run `cairn stack init <name>` or `cairn stack select <name>`, or pass --stack")
		}
		name = sel
	}
	return s.parseRef(name)
}

// notFound says that a stack does not exist and how to create it.
func notFound(ref backend.StackRef) error {
	return fmt.Errorf("stack %q does not exist in project %s; create it with `cairn stack init %s` (or `cairn stack select --create %s`)",
		ref.Name, ref.Project, ref.Name, ref.Name)
}

func (s *session) stackExists(ref backend.StackRef) (bool, error) {
	return s.backend.StackExists(s.c.Context, ref)
}

// stackConfig reads the selected stack's configuration file.
func (s *session) stackConfig() (*workspace.StackConfig, error) {
	return workspace.LoadStackConfig(s.project, s.stack)
}

// stackSecrets returns the secrets manager of the stack's configuration.
func (s *session) stackSecrets() (secrets.Manager, error) {
	cfg, err := s.stackConfig()
	if err != nil {
		return nil, err
	}
	return s.secrets(cfg)
}

// readPassphrase returns the secrets passphrase from the environment, or
// asks for it on a terminal.
func (s *session) readPassphrase() (string, error) {
	for _, v := range []string{"CAIRN_CONFIG_PASSPHRASE", "PULUMI_CONFIG_PASSPHRASE"} {
		if p, ok := os.LookupEnv(v); ok {
			return p, nil
		}
	}
	for _, v := range []string{"CAIRN_CONFIG_PASSPHRASE_FILE", "PULUMI_CONFIG_PASSPHRASE_FILE"} {
		if f := os.Getenv(v); f != "" {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", fmt.Errorf("%s: %w", v, err)
			}
			return strings.TrimRight(string(data), "\r\n"), nil
		}
	}
	if !s.interactive() {
		return "", errors.New("the stack's secrets need a passphrase: set CAIRN_CONFIG_PASSPHRASE (an empty value is allowed)")
	}
	fmt.Fprint(s.stderr, "Enter the passphrase of the stack's secrets: ")
	p, err := term.ReadPassword(int(s.stdin.(*os.File).Fd()))
	fmt.Fprintln(s.stderr)
	return string(p), err
}

// secrets returns the stack's secrets manager, creating its salt (stored as
// encryptionsalt in the stack's configuration file) on first use.
func (s *session) secrets(cfg *workspace.StackConfig) (secrets.Manager, error) {
	if cfg.SecretsProvider != "" && cfg.SecretsProvider != secrets.PassphraseType {
		return nil, fmt.Errorf("the stack uses the secrets provider %q; Cairn supports passphrase secrets only", cfg.SecretsProvider)
	}
	pass, err := s.readPassphrase()
	if err != nil {
		return nil, err
	}
	s.passphrase = pass
	if cfg.EncryptionSalt != "" {
		return secrets.NewPassphraseManager(pass, cfg.EncryptionSalt)
	}
	m, err := secrets.GeneratePassphraseManager(pass)
	if err != nil {
		return nil, err
	}
	cfg.EncryptionSalt = m.Salt()
	if err := cfg.Save(); err != nil {
		return nil, fmt.Errorf("saving the stack's encryption salt: %w", err)
	}
	return m, nil
}
