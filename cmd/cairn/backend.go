package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/engine/backend/postgres"
)

// backendURL is the backend the user chose: CAIRN_BACKEND_URL, then
// PULUMI_BACKEND_URL, else the local backend under CAIRN_HOME.
func backendURL(home string) string {
	for _, v := range []string{"CAIRN_BACKEND_URL", "PULUMI_BACKEND_URL"} {
		if u := os.Getenv(v); u != "" {
			return u
		}
	}
	return "file://" + filepath.Join(home, "state")
}

// openBackend opens the backend of a URL: file:// or postgres://. Locks
// taken on a PostgreSQL backend record CAIRN_HOSTNAME as their host, when
// set.
func openBackend(ctx context.Context, url string, warn func(string)) (backend.Backend, error) {
	switch {
	case strings.HasPrefix(url, "file://"):
		return local.Open(url, local.Options{Warn: warn, EngineVersion: version})
	case postgres.IsURL(url):
		return postgres.Open(ctx, url, postgres.Options{Warn: warn, EngineVersion: version, Hostname: os.Getenv("CAIRN_HOSTNAME")})
	}
	scheme, _, _ := strings.Cut(url, "://")
	return nil, fmt.Errorf("backend URL scheme %q is not supported; use file://DIR or postgres://user:password@host:port/db (CAIRN_BACKEND_URL)", scheme)
}
