package tfbackend

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/cairn-iac/cairn/internal/objtest"
)

// TestReadBuckets reads states from real object stores (VersityGW,
// fake-gcs-server, Azurite) where Terraform's s3, gcs and azurerm
// backends put them, for the default workspace and another, with the
// arguments Terraform takes; and Terraform's lock file beside a state.
func TestReadBuckets(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		start func(testing.TB) *objtest.Store
		args  func(st *objtest.Store) (string, map[string]any)
		// keys of the default workspace's state, prod's, and the lock.
		keys [3]string
	}{
		{"S3", objtest.S3, func(st *objtest.Store) (string, map[string]any) {
			return "s3", map[string]any{"bucket": st.Bucket, "key": "net/terraform.tfstate", "region": objtest.Region,
				"endpoints": map[string]any{"s3": st.Endpoint}, "use_path_style": true, "use_lockfile": true,
				"access_key": objtest.S3AccessKey, "secret_key": objtest.S3SecretKey, "skip_credentials_validation": true}
		}, [3]string{"net/terraform.tfstate", "env:/prod/net/terraform.tfstate", "net/terraform.tfstate.tflock"}},
		{"GCS", objtest.GCS, func(st *objtest.Store) (string, map[string]any) {
			return "gcs", map[string]any{"bucket": st.Bucket, "prefix": "net/"}
		}, [3]string{"net/default.tfstate", "net/prod.tfstate", "net/default.tflock"}},
		{"Azure", objtest.Azure, func(st *objtest.Store) (string, map[string]any) {
			return "azurerm", map[string]any{"storage_account_name": objtest.AzureAccount, "container_name": st.Bucket,
				"key": "net.tfstate", "access_key": objtest.AzureAccessKey, "endpoint": st.Endpoint + "/" + objtest.AzureAccount}
		}, [3]string{"net.tfstate", "net.tfstateenv:prod", ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := c.start(t)
			st.Setenv(t)
			bucket, err := blob.OpenBucket(ctx, st.URL)
			if err != nil {
				t.Fatal(err)
			}
			defer bucket.Close()
			prod := strings.Replace(state, `"serial": 1`, `"serial": 2`, 1)
			for key, data := range map[string]string{c.keys[0]: state, c.keys[1]: prod} {
				if err := bucket.WriteAll(ctx, key, []byte(data), nil); err != nil {
					t.Fatal(err)
				}
			}
			typ, args := c.args(st)
			b, err := New(typ, args, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got, err := b.ReadState(ctx, "default"); err != nil || string(got) != state {
				t.Errorf("default: %q, %v", got, err)
			}
			if got, err := b.ReadState(ctx, "prod"); err != nil || string(got) != prod {
				t.Errorf("prod: %q, %v", got, err)
			}
			if _, err := b.ReadState(ctx, "staging"); !errors.Is(err, ErrNoState) {
				t.Errorf("staging: %v, want ErrNoState", err)
			}
			if c.keys[2] == "" {
				return
			}
			if lock, err := b.Lock(ctx, "default"); err != nil || lock != nil {
				t.Errorf("Lock before locking: %v, %v", lock, err)
			}
			lockJSON := `{"ID":"f1e2","Operation":"OperationTypeApply","Info":"","Who":"alice@ci","Version":"1.12.6","Created":"2026-11-29T08:00:00Z","Path":"x"}`
			if err := bucket.WriteAll(ctx, c.keys[2], []byte(lockJSON), nil); err != nil {
				t.Fatal(err)
			}
			lock, err := b.Lock(ctx, "default")
			if err != nil || lock == nil || lock.Who != "alice@ci" || !strings.Contains(lock.String(), "OperationTypeApply") {
				t.Errorf("Lock = %v, %v; want alice@ci's", lock, err)
			}
			// The lock does not keep the state from being read, as in
			// Terraform.
			if _, err := b.ReadState(ctx, "default"); err != nil {
				t.Errorf("reading a locked state: %v", err)
			}
		})
	}
}
