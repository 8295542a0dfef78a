package bucket_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/internal/objtest"
)

// TestJournalSegments: an operation's batches share a few segment objects
// (each rewritten with the batch appended) rather than an object each, so
// Finish has a few objects to remove; what an operation that died leaves
// is still its whole journal, recovered by the next one.
func TestJournalSegments(t *testing.T) {
	ctx := context.Background()
	st := objtest.S3(t)
	var w warnings
	b := open(t, st, &w)
	if err := b.CreateStack(ctx, dev, nil, nil); err != nil {
		t.Fatal(err)
	}
	_, op := beginUpdate(t, b)
	const things = 150 // 300 batches: each append waits for its own
	for i := range things {
		created(t, op.Journal(), int64(i+1), thing(fmt.Sprintf("t%03d", i)))
	}
	// The process dies here.
	keys := listObjects(t, st, ".pulumi/journals/")
	if len(keys) < 3 || len(keys) > 10 {
		t.Errorf("the journal of %d batches is %d objects, want the header and a few segments: %v", 2*things, len(keys), keys)
	}
	for _, k := range keys {
		if data := readObject(t, st, k); len(data) > 20<<10 {
			t.Errorf("segment %s holds %d bytes, want at most some 16 KiB", k, len(data))
		}
	}

	other, err := openURL(st.URL, &w)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Unlock(ctx, dev); err != nil {
		t.Fatal(err)
	}
	lock, err := other.Lock(ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	op2, err := lock.Begin(ctx, backend.OperationInfo{Kind: backend.KindRefresh})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(op2.Base().Resources); n != things {
		t.Errorf("the next operation begins from %d resources, want the %d the dead one created", n, things)
	}
	if err := op2.Finish(ctx, nil, backend.Summary{}); err != nil {
		t.Fatal(err)
	}
	if keys := listObjects(t, st, ".pulumi/journals/"); len(keys) != 0 {
		t.Errorf("journal objects left after Finish: %v", keys)
	}
	if !strings.Contains(w.all(), "its journal was recovered") {
		t.Errorf("no warning that the journal was recovered: %q", w.all())
	}
}
