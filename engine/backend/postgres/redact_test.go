package postgres

import (
	"errors"
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct{ url, want string }{
		{"postgres://me:hunter22@db:5432/cairn?sslmode=require", "postgres://me:xxxxx@db:5432/cairn?sslmode=require"},
		{"postgres://me@db/cairn?password=hunter22&sslmode=require", "postgres://me@db/cairn?password=xxxxx&sslmode=require"},
		{"postgresql://db/cairn?sslpassword=hunter22&sslkey=/home/me/key.pem", "postgresql://db/cairn?sslpassword=xxxxx&sslkey=/home/me/key.pem"},
		{"postgres://db/cairn?pass%77ord=hunter22", "postgres://db/cairn?pass%77ord=xxxxx"},
		{"postgres://db/cairn?PASSWORD=hunter22&passfile=/home/me/.pgpass", "postgres://db/cairn?PASSWORD=xxxxx&passfile=/home/me/.pgpass"},
		{"postgres://me:hun@ter22@db/cairn", "postgres://me:xxxxx@db/cairn"},
		// Several hosts, which the standard parser refuses.
		{"postgres://me:hunter22@db1:5432,db2:5432/cairn?password=hunter22", "postgres://me:xxxxx@db1:5432,db2:5432/cairn?password=xxxxx"},
		// A password with an unescaped / ? or #, read as path, query or fragment.
		{"postgres://me:12/hunter22@db/cairn", "postgres://me:xxxxx@db/cairn"},
		{"postgres://me:12?hunter22@db/cairn", "postgres://me:xxxxx@db/cairn"},
		{"postgres://me:12#hunter22@db/cairn", "postgres://me:xxxxx@db/cairn"},
		// An @ in a parameter is read as the end of a password: more is
		// masked than needed, never less.
		{"postgres://db:5432/cairn?application_name=me@work", "postgres://db:xxxxx@work"},
		{"postgres://db/cairn", "postgres://db/cairn"},
	}
	for _, tt := range tests {
		got, secrets := redact(tt.url)
		if got != tt.want {
			t.Errorf("redact(%q) = %q, want %q", tt.url, got, tt.want)
		}
		if strings.Contains(got, "hunter22") || strings.Contains(got, "ter22") {
			t.Errorf("redact(%q) = %q shows the password", tt.url, got)
		}
		if strings.Contains(tt.url, "hunter22") && len(secrets) == 0 {
			t.Errorf("redact(%q) found no secret", tt.url)
		}
	}
}

func TestMaskErr(t *testing.T) {
	err := maskErr(errors.New(`cannot parse: bad value "hunter22" and "hunter 22"`), "postgres://db/cairn?password=hunter%2022&sslpassword=hunter22&x=y=z")
	if got := err.Error(); got != `cannot parse: bad value "xxxxx" and "xxxxx"` {
		t.Errorf("maskErr = %q", got)
	}
}
