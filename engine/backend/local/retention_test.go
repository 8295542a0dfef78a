package local_test

import (
	"testing"

	"github.com/cairn-iac/cairn/engine/backend/local"
	"github.com/cairn-iac/cairn/internal/backendtest"
)

func TestRetention(t *testing.T) {
	b, err := local.New(t.TempDir(), local.Options{})
	if err != nil {
		t.Fatal(err)
	}
	backendtest.Retention(t, b)
}
