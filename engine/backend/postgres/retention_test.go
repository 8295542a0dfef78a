package postgres_test

import (
	"context"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend/postgres"
	"github.com/cairn-iac/cairn/internal/backendtest"
	"github.com/cairn-iac/cairn/internal/pgtest"
)

func TestRetention(t *testing.T) {
	b, err := postgres.Open(context.Background(), pgtest.New(t).Database(t, t.Name()), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	backendtest.Retention(t, b)
}
