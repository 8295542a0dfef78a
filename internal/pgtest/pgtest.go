// Package pgtest runs a throwaway PostgreSQL server for tests and
// benchmarks: initdb and pg_ctl in a temporary folder, listening on a free
// loopback port, as the unprivileged user nobody when run as root (initdb
// refuses root), with trust authentication for every role but
// PasswordUser.
//
//	srv := pgtest.New(t) // skips (or fails, with CAIRN_REQUIRE_POSTGRES=1) without PostgreSQL
//	url := srv.Database(t, "scenario") // postgres://cairn:…@127.0.0.1:PORT/scenario
package pgtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// RequireEnv names the variable that, set to 1, turns "PostgreSQL not
// found" into a test failure (CI sets it).
const RequireEnv = "CAIRN_REQUIRE_POSTGRES"

// Password is the password in the URLs the server hands out; trust
// authentication ignores it, so tests can check that it is masked.
const Password = "s3cret-pw"

// PasswordUser is the one role that must give its password
// (scram-sha-256), so that tests can see a wrong one refused; a test
// creates it (CREATE ROLE ... LOGIN PASSWORD ...).
const PasswordUser = "cairn_password"

// Server is a running PostgreSQL server.
type Server struct {
	bin  string // the folder of initdb, pg_ctl and postgres
	dir  string // the data folder
	Port int
	// asUser runs commands as the user owning dir (nobody, when root).
	asUser []string

	mu  sync.Mutex
	dbs int
}

// ErrNotInstalled is returned by Start when no PostgreSQL is installed.
var ErrNotInstalled = errors.New("PostgreSQL is not installed (no pg_config --bindir, no /usr/lib/postgresql/*/bin); " +
	"install it with `apt-get install -y postgresql-15`")

// BinDir finds the folder of PostgreSQL's server programs.
func BinDir() (string, error) {
	if pgConfig, err := lookPath("pg_config"); err == nil {
		if out, err := exec.Command(pgConfig, "--bindir").Output(); err == nil {
			dir := strings.TrimSpace(string(out))
			if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
				return dir, nil
			}
		}
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(matches) == 0 {
		return "", ErrNotInstalled
	}
	return filepath.Dir(matches[len(matches)-1]), nil
}

// systemDirs are the folders of the system's programs, where root's
// PATH finds them; a test may run with a PATH that leaves some out
// (/usr/sbin, where runuser is).
var systemDirs = []string{"/usr/sbin", "/sbin", "/usr/bin", "/bin"}

// lookPath finds a program on PATH, else in the system's folders.
func lookPath(name string) (string, error) {
	if path, err := exec.LookPath(name); err == nil {
		return path, nil
	}
	for _, dir := range systemDirs {
		path := filepath.Join(dir, name)
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return path, nil
		}
	}
	return "", fmt.Errorf("%s is neither on PATH nor in %s", name, strings.Join(systemDirs, ", "))
}

// Options tune a server.
type Options struct {
	// Durable keeps fsync on (benchmarks); tests run without it.
	Durable bool
}

// Start initializes and starts a server; Stop stops it and removes its
// files.
func Start(opts Options) (*Server, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "cairn-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{bin: bin, dir: dir}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("running PostgreSQL as root needs the user nobody: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		runuser, err := lookPath("runuser")
		if err != nil {
			s.remove()
			return nil, fmt.Errorf("running PostgreSQL as root needs runuser: %w", err)
		}
		s.asUser = []string{runuser, "-u", "nobody", "--"}
	}
	data := filepath.Join(dir, "data")
	if err := s.run("initdb", "-D", data, "-U", "cairn", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
		s.remove()
		return nil, err
	}
	conf := "listen_addresses = '127.0.0.1'\nunix_socket_directories = '" + dir + "'\nmax_connections = 200\n"
	if !opts.Durable {
		conf += "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
	}
	if err := appendFile(filepath.Join(data, "postgresql.conf"), conf); err != nil {
		s.remove()
		return nil, err
	}
	if err := prependFile(filepath.Join(data, "pg_hba.conf"), "host all "+PasswordUser+" 127.0.0.1/32 scram-sha-256\n"); err != nil {
		s.remove()
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		if s.Port, err = freePort(); err == nil {
			if err = s.Restart(); err == nil {
				return s, nil
			}
		}
		if attempt == 2 {
			s.remove()
			return nil, err
		}
	}
}

// Restart starts the server (again), on its port.
func (s *Server) Restart() error {
	return s.run("pg_ctl", "start", "-w", "-D", filepath.Join(s.dir, "data"), "-l", filepath.Join(s.dir, "log"),
		"-o", "-p "+strconv.Itoa(s.Port))
}

// Kill stops the server at once, as a crash would (pg_ctl stop -m
// immediate): its clients' connections break.
func (s *Server) Kill() error {
	return s.run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", filepath.Join(s.dir, "data"))
}

// Stop stops the server and removes its files.
func (s *Server) Stop() {
	s.run("pg_ctl", "stop", "-w", "-m", "fast", "-D", filepath.Join(s.dir, "data"))
	s.remove()
}

func (s *Server) remove() { os.RemoveAll(s.dir) }

// URL is the URL of a database of the server.
func (s *Server) URL(db string) string {
	return fmt.Sprintf("postgres://cairn:%s@127.0.0.1:%d/%s?sslmode=disable", Password, s.Port, db)
}

// CreateDatabase creates a database with a name not used before and
// returns its URL.
func (s *Server) CreateDatabase(ctx context.Context, prefix string) (string, error) {
	s.mu.Lock()
	s.dbs++
	name := fmt.Sprintf("%s_%d", sanitize(prefix), s.dbs)
	s.mu.Unlock()
	conn, err := pgx.Connect(ctx, s.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("creating database %s: %w", name, err)
	}
	return s.URL(name), nil
}

// run runs one of PostgreSQL's programs, as the server's user.
func (s *Server) run(prog string, args ...string) error {
	argv := append(append(append([]string{}, s.asUser...), filepath.Join(s.bin, prog)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
		return fmt.Errorf("%s: %w\n%s%s", strings.Join(argv, " "), err, out.Bytes(), log)
	}
	return nil
}

// New starts a server for a test and stops it when the test ends. Without
// PostgreSQL the test is skipped, or fails when CAIRN_REQUIRE_POSTGRES=1.
func New(t testing.TB) *Server {
	t.Helper()
	s, err := Start(Options{})
	if errors.Is(err, ErrNotInstalled) && os.Getenv(RequireEnv) != "1" {
		t.Skipf("SKIPPING the PostgreSQL tests: %v (set %s=1 to make this a failure)", err, RequireEnv)
	}
	if err != nil {
		t.Fatalf("starting PostgreSQL: %v", err)
	}
	t.Cleanup(s.Stop)
	return s
}

// Database creates a database for a test and returns its URL.
func (s *Server) Database(t testing.TB, prefix string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := s.CreateDatabase(ctx, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return url
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// prependFile writes text at the start of a file: pg_hba.conf's first
// matching line wins.
func prependFile(path, text string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(text), data...), 0o600)
}

// sanitize makes a database name of a test's name.
func sanitize(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if s := b.String(); len(s) <= 40 {
		return s
	}
	return b.String()[:40]
}

// Dump returns, as text, every row of Cairn's tables in the database of
// url: what a reader of the database could see.
func Dump(ctx context.Context, url string) ([]byte, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	var out bytes.Buffer
	for _, q := range []string{
		`SELECT project || '/' || stack || ' ' || convert_from(checkpoint, 'UTF8') FROM cairn_states ORDER BY id`,
		`SELECT project || '/' || stack || ' ' || record::text FROM cairn_history ORDER BY project, stack, version`,
		`SELECT project || '/' || stack || ' ' || convert_from(header, 'UTF8') FROM cairn_operations`,
		`SELECT project || '/' || stack || ' ' || convert_from(lines, 'UTF8') FROM cairn_journal ORDER BY seq`,
		`SELECT t::text FROM cairn_locks t`,
	} {
		rows, err := conn.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, err
		}
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
	}
	return out.Bytes(), nil
}

// Exec runs SQL statements on the database of url.
func Exec(ctx context.Context, url, sql string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}
