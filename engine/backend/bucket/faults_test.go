package bucket_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"strings"
	"testing"

	"gocloud.dev/blob"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/internal/objtest"
)

// rawBucket opens the store's bucket directly, as another program would.
func rawBucket(t *testing.T, st *objtest.Store) *blob.Bucket {
	t.Helper()
	st.Setenv(t)
	bk, err := blob.OpenBucket(context.Background(), st.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}

func readObject(t *testing.T, st *objtest.Store, key string) []byte {
	t.Helper()
	data, err := rawBucket(t, st).ReadAll(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeObject(t *testing.T, st *objtest.Store, key, content string) {
	t.Helper()
	if err := rawBucket(t, st).WriteAll(context.Background(), key, []byte(content), nil); err != nil {
		t.Fatal(err)
	}
}

func listObjects(t *testing.T, st *objtest.Store, prefix string) []string {
	t.Helper()
	var keys []string
	it := rawBucket(t, st).List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := it.Next(context.Background())
		if err == io.EOF {
			return keys
		}
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, obj.Key)
	}
}

// TestBadBucket: a bucket that does not exist, refused credentials and a
// layout of a future version each get one clear error, naming the URL
// without its secrets.
func TestBadBucket(t *testing.T) {
	st := objtest.S3(t)
	st.Setenv(t)
	missing := strings.Replace(st.URL, st.Bucket, "no-such-bucket", 1)
	if _, err := openURL(missing, nil); err == nil || !strings.Contains(err.Error(), "does not exist") || !strings.Contains(err.Error(), "s3://no-such-bucket") {
		t.Errorf("opening a bucket that does not exist: %v", err)
	}

	writeObject(t, st, ".pulumi/meta.yaml", "version: 9\n")
	if _, err := openURL(st.URL, nil); err == nil || !strings.Contains(err.Error(), "layout version 9; Cairn reads version 1") {
		t.Errorf("opening a bucket of layout version 9: %v", err)
	}
	writeObject(t, st, ".pulumi/meta.yaml", "version: 1\n")

	if _, err := openURL(st.URL+"&sse_token=hunter2", nil); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("opening a bucket with a bad parameter: %v; want an error without the secret", err)
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-the-secret")
	if _, err := openURL(st.URL, nil); err == nil || !strings.Contains(err.Error(), "credentials for backend") {
		t.Errorf("opening a bucket with wrong credentials: %v", err)
	}
}

// TestServerDown: while the server is down every request fails, after its
// retries, with an error naming the backend; nothing is lost, and once the
// server is back the stack is as it was.
func TestServerDown(t *testing.T) {
	ctx := context.Background()
	st := objtest.S3(t)
	b := open(t, st, nil)
	if err := b.CreateStack(ctx, dev, nil, nil); err != nil {
		t.Fatal(err)
	}
	lock, op := beginUpdate(t, b)
	created(t, op.Journal(), 1, thing("a"))
	st.Stop()
	err := op.Journal().Append(beginning(2, thing("b")))
	if err == nil || !strings.Contains(err.Error(), "failed for 2s, retried") || !strings.Contains(err.Error(), "s3://"+st.Bucket) {
		t.Errorf("Append with the server down = %v, want an error after retries naming the backend", err)
	}
	if err := op.Finish(ctx, nil, backend.Summary{}); err == nil {
		t.Error("Finish with the server down succeeded")
	}
	if err := st.Start(); err != nil {
		t.Fatal(err)
	}
	lock.Release()
	snap, err := b.Snapshot(ctx, dev, nil)
	if err != nil || len(snap.Resources) != 1 {
		t.Fatalf("after the server came back the stack has %v, %v; want the created resource", snap, err)
	}
}

// TestUnreadableState: a corrupt or truncated state object is an error
// that names it and the backup to restore, and nothing is written.
func TestUnreadableState(t *testing.T) {
	ctx := context.Background()
	st := objtest.S3(t)
	b := open(t, st, nil)
	if err := b.CreateStack(ctx, dev, nil, nil); err != nil {
		t.Fatal(err)
	}
	good := readObject(t, st, ".pulumi/stacks/proj/dev.json")
	writeObject(t, st, ".pulumi/stacks/proj/dev.json", string(good[:len(good)/2]))
	_, err := b.Snapshot(ctx, dev, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot be read") || !strings.Contains(err.Error(), ".pulumi/stacks/proj/dev.json") {
		t.Errorf("Snapshot of a truncated state = %v", err)
	}
	if lock, err := b.Lock(ctx, dev); err == nil {
		if _, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindUpdate}); err == nil {
			t.Error("an operation began on a truncated state")
		}
		lock.Release()
	}
	if got := readObject(t, st, ".pulumi/stacks/proj/dev.json"); !bytes.Equal(got, good[:len(good)/2]) {
		t.Error("the truncated state was changed")
	}
}

// TestCompressedState: a state Pulumi wrote compressed (.json.gz) is read,
// and the next state Cairn writes replaces it with a .json.
func TestCompressedState(t *testing.T) {
	ctx := context.Background()
	st := objtest.S3(t)
	b := open(t, st, nil)
	if err := b.CreateStack(ctx, dev, nil, nil); err != nil {
		t.Fatal(err)
	}
	plain := readObject(t, st, ".pulumi/stacks/proj/dev.json")
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(plain)
	w.Close()
	writeObject(t, st, ".pulumi/stacks/proj/dev.json.gz", gz.String())
	if err := rawBucket(t, st).Delete(ctx, ".pulumi/stacks/proj/dev.json"); err != nil {
		t.Fatal(err)
	}
	stacks, err := b.ListStacks(ctx, "")
	if err != nil || len(stacks) != 1 || stacks[0].Err != nil {
		t.Fatalf("ListStacks with a .json.gz state = %+v, %v", stacks, err)
	}
	lock, op := beginUpdate(t, b)
	created(t, op.Journal(), 1, thing("a"))
	if err := op.Finish(ctx, nil, backend.Summary{}); err != nil {
		t.Fatal(err)
	}
	lock.Release()
	if keys := listObjects(t, st, ".pulumi/stacks/"); len(keys) != 1 || keys[0] != ".pulumi/stacks/proj/dev.json" {
		t.Errorf("state objects after an operation = %v, want the .json alone", keys)
	}
}
