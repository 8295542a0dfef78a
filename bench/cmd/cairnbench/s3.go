package main

import (
	"context"
	"os"
	"strings"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/cairn-iac/cairn/internal/objtest"
)

// objectSize is the size of an object of the bucket st.
func objectSize(st *objtest.Store, key string) (int64, error) {
	for _, kv := range st.Env {
		name, value, _ := strings.Cut(kv, "=")
		os.Setenv(name, value)
	}
	ctx := context.Background()
	bk, err := blob.OpenBucket(ctx, st.URL)
	if err != nil {
		return 0, err
	}
	defer bk.Close()
	attrs, err := bk.Attributes(ctx, key)
	if err != nil {
		return 0, err
	}
	return attrs.Size, nil
}
