package main

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"gocloud.dev/blob"

	"github.com/cairn-iac/cairn/internal/objtest"
)

// TestScriptsBuckets runs the backend scenarios (but the one that needs a
// second backend) with CAIRN_BACKEND_URL naming a bucket of its own on a
// real server of each object store the test starts: S3 (VersityGW),
// Google Cloud Storage (fake-gcs-server) and Azure Blob Storage (Azurite).
// Among them: a SIGKILL of `up` mid-create, mid-update and mid-delete loses
// nothing and the next command recovers (pending_cleared_after_kill), and a
// second `up` of a locked stack is refused naming the holder
// (locked_stack).
func TestScriptsBuckets(t *testing.T) {
	for _, store := range []struct {
		name  string
		start func(testing.TB) *objtest.Store
	}{{"S3", objtest.S3}, {"GCS", objtest.GCS}, {"Azure", objtest.Azure}} {
		t.Run(store.name, func(t *testing.T) {
			st := store.start(t)
			st.Setenv(t) // for dumpstate, which reads the bucket from this process
			srv := st.Server
			p := scriptParams(nil)
			setup := p.Setup
			p.Setup = func(e *testscript.Env) error {
				if err := setup(e); err != nil {
					return err
				}
				st, err := srv.NewBucket()
				if err != nil {
					return err
				}
				objtest.SetenvWith(st.Env, e.Setenv)
				e.Setenv("CAIRN_BACKEND_URL", st.URL)
				return nil
			}
			dir := p.Dir
			p.Dir = ""
			for _, name := range backendScenarios {
				if !slices.Contains(needSecondBackend, name) {
					p.Files = append(p.Files, filepath.Join(dir, name+".txtar"))
				}
			}
			testscript.Run(t, p)
		})
	}
}

// needSecondBackend are the backend scenarios that make a second backend
// (newdb), which only PostgreSQL does.
var needSecondBackend = []string{"stack_import_fresh"}

// dumpBucket returns every object of the bucket of a backend URL, end to
// end (dumpstate), read with this process's credentials.
func dumpBucket(url string) ([]byte, error) {
	ctx := context.Background()
	bk, err := blob.OpenBucket(ctx, url)
	if err != nil {
		return nil, err
	}
	defer bk.Close()
	var dump []byte
	it := bk.List(nil)
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			return dump, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := bk.ReadAll(ctx, obj.Key)
		if err != nil {
			return nil, err
		}
		dump = append(dump, data...)
	}
}
