package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/bucket"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/backend/postgres"
)

// chosenBackendURL is the backend the user chose: CAIRN_BACKEND_URL, then
// PULUMI_BACKEND_URL; "" when neither is set.
func chosenBackendURL() string {
	for _, v := range []string{"CAIRN_BACKEND_URL", "PULUMI_BACKEND_URL"} {
		if u := os.Getenv(v); u != "" {
			return u
		}
	}
	return ""
}

// defaultBackendURL is the local backend under CAIRN_HOME.
func defaultBackendURL(home string) string { return "file://" + filepath.Join(home, "state") }

// openBackend opens the backend of a URL: file://, postgres://, or a
// bucket's (s3://, gs://, azblob://). Locks
// taken on a PostgreSQL backend record CAIRN_HOSTNAME as their host, when
// set.
func openBackend(ctx context.Context, url string, warn func(string)) (backend.Backend, error) {
	// As Pulumi's DIY backend, write states compressed when asked to.
	gzip, _ := strconv.ParseBool(os.Getenv("PULUMI_DIY_BACKEND_GZIP"))
	switch {
	case strings.HasPrefix(url, "file://"):
		return local.Open(url, local.Options{Warn: warn, EngineVersion: version, Gzip: gzip})
	case postgres.IsURL(url):
		return postgres.Open(ctx, url, postgres.Options{Options: backend.Options{Warn: warn, EngineVersion: version}, Hostname: os.Getenv("CAIRN_HOSTNAME")})
	case bucket.IsURL(url):
		return bucket.Open(ctx, url, bucket.Options{Options: backend.Options{Warn: warn, EngineVersion: version, Gzip: gzip}})
	}
	scheme, _, _ := strings.Cut(url, "://")
	return nil, fmt.Errorf("backend URL scheme %q is not supported; use file://DIR, postgres://user:password@host:port/db, "+
		"s3://BUCKET[/PREFIX], gs://BUCKET[/PREFIX] or azblob://CONTAINER[/PREFIX] (CAIRN_BACKEND_URL)", scheme)
}

func backendCommand() *cli.Command {
	return &cli.Command{
		Name:  "backend",
		Usage: "work with the backends that keep stacks",
		Subcommands: []*cli.Command{{
			Name:      "migrate",
			Usage:     "copy stacks, with their history and every state they had, from one backend to another",
			ArgsUsage: "[PROJECT/STACK...]",
			UsageText: "cairn backend migrate --from file://~/.cairn/state --to postgres://me:pw@db:5432/cairn\n" +
				"cairn backend migrate --from URL --to URL web/prod api/prod\n" +
				"cairn backend migrate --from URL --to URL --stack web/prod",
			Description: `Each stack is copied under its lock, refusing one whose last operation did not
finish, and must not exist in the target backend. The stacks stay in the
source backend; remove them there (cairn stack rm --force) once the copies
are checked.`,
			Flags: []cli.Flag{
				&cli.StringFlag{Name: "from", Required: true, Usage: "the `URL` of the backend to copy from"},
				&cli.StringFlag{Name: "to", Required: true, Usage: "the `URL` of the backend to copy to"},
			},
			Action: backendMigrate,
		}},
	}
}

func backendMigrate(c *cli.Context) error {
	warn := func(msg string) { fmt.Fprintln(c.App.ErrWriter, "warning:", msg) }
	var ends [2]backend.Mover
	for i, flag := range []string{"from", "to"} {
		b, err := openBackend(c.Context, c.String(flag), warn)
		if err != nil {
			return fmt.Errorf("--%s: %w", flag, err)
		}
		m, ok := b.(backend.Mover)
		if !ok {
			return fmt.Errorf("--%s: stacks cannot be moved out of or into %s", flag, b.URL())
		}
		ends[i] = m
	}
	refs, err := migrateRefs(c, ends[0])
	if err != nil {
		return err
	}
	for _, ref := range refs {
		n, err := backend.Move(c.Context, ends[0], ends[1], ref)
		if err != nil {
			return err
		}
		fmt.Fprintf(c.App.Writer, "Copied stack %s (%d operations in its history) from %s to %s\n", ref, n, ends[0].URL(), ends[1].URL())
	}
	return nil
}

// migrateRefs are the stacks named by the arguments and --stack, as
// PROJECT/STACK, or every stack of from.
func migrateRefs(c *cli.Context, from backend.Backend) ([]backend.StackRef, error) {
	names := c.Args().Slice()
	if s := global(c, "stack"); s != "" {
		names = append(names, s)
	}
	var refs []backend.StackRef
	for _, s := range names {
		project, name, ok := strings.Cut(s, "/")
		ref := backend.StackRef{Project: project, Name: name}
		if !ok {
			return nil, fmt.Errorf("stack %q: name a stack to copy as PROJECT/STACK", s)
		}
		if err := ref.Validate(); err != nil {
			return nil, fmt.Errorf("stack %q: %w", s, err)
		}
		refs = append(refs, ref)
	}
	if len(refs) > 0 {
		return refs, nil
	}
	stacks, err := from.ListStacks(c.Context, "")
	if err != nil {
		return nil, err
	}
	for _, s := range stacks {
		refs = append(refs, s.Ref)
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%s holds no stacks", from.URL())
	}
	return refs, nil
}
