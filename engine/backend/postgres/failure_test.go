package postgres_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend/postgres"
	"github.com/cairn-iac/cairn/internal/pgtest"
)

// A connection refused by the server (a wrong password, a database that
// does not exist) or by the host is an error that leads with the cause,
// then names the backend, secrets masked, then says what to do.
func TestConnectionErrorsLeadWithTheCause(t *testing.T) {
	srv := pgtest.New(t)
	ctx := context.Background()
	if err := pgtest.Exec(ctx, srv.URL("postgres"), "CREATE ROLE "+pgtest.PasswordUser+" LOGIN PASSWORD 'right-one'"); err != nil {
		t.Fatal(err)
	}
	db := srv.Database(t, "exists")
	dbName := db[strings.LastIndexByte(db, '/')+1 : strings.IndexByte(db, '?')]
	host := fmt.Sprintf("127.0.0.1:%d", srv.Port)
	user := pgtest.PasswordUser
	tests := []struct{ name, url, want string }{
		{"wrong password", fmt.Sprintf("postgres://%s:wrong-one@%s/%s?sslmode=disable", user, host, dbName),
			fmt.Sprintf(`^password authentication failed for user "%s" \(the PostgreSQL backend postgres://%s:xxxxx@%s/%s\?sslmode=disable\): check the user and password in the backend URL$`, user, user, host, dbName)},
		{"wrong password parameter", fmt.Sprintf("postgres://%s@%s/%s?password=wrong-one&sslmode=disable", user, host, dbName),
			fmt.Sprintf(`^password authentication failed for user "%s" \(the PostgreSQL backend postgres://%s@%s/%s\?password=xxxxx&sslmode=disable\)`, user, user, host, dbName)},
		{"no such database", fmt.Sprintf("postgres://cairn:wrong-one@%s/nowhere?sslmode=disable", host),
			fmt.Sprintf(`^database "nowhere" does not exist \(the PostgreSQL backend postgres://cairn:xxxxx@%s/nowhere\?sslmode=disable\): create the database, or name one that exists in the backend URL$`, host)},
		{"no such role", fmt.Sprintf("postgres://nobody_here:wrong-one@%s/%s?sslmode=disable", host, dbName),
			`^role "nobody_here" does not exist \(the PostgreSQL backend postgres://nobody_here:xxxxx@.*\): check the user in the backend URL`},
		{"connection refused", "postgres://cairn:wrong-one@127.0.0.1:1/db?connect_timeout=5",
			`^connection refused by 127.0.0.1:1 \(the PostgreSQL backend postgres://cairn:xxxxx@127.0.0.1:1/db\?connect_timeout=5\): check that the PostgreSQL server is running and listens at that host and port$`},
		{"no such host", "postgres://cairn:wrong-one@no-such-host.invalid/db?connect_timeout=5",
			`^(the host no-such-host.invalid cannot be found|looking up the host no-such-host.invalid failed: .*) \(the PostgreSQL backend postgres://cairn:xxxxx@no-such-host.invalid/db\?connect_timeout=5\): check the host in the backend URL`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := postgres.Open(ctx, tt.url, postgres.Options{})
			if err == nil {
				b.Close()
				t.Fatal("Open succeeded")
			}
			if !regexp.MustCompile(tt.want).MatchString(err.Error()) || strings.Contains(err.Error(), "wrong-one") {
				t.Errorf("error:\n%s\nwant it to match:\n%s\nand not show the password", err, tt.want)
			}
		})
	}
	right := fmt.Sprintf("postgres://%s:right-one@%s/%s?sslmode=disable", user, host, dbName)
	if err := pgtest.Exec(ctx, db, "GRANT ALL ON SCHEMA public TO "+user); err != nil {
		t.Fatal(err)
	}
	b, err := postgres.Open(ctx, right, postgres.Options{})
	if err != nil {
		t.Fatalf("Open with the right password: %v", err)
	}
	b.Close()
}
