package bucket

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// hashKey is the metadata key under which Cairn records the SHA-256 of a
// state it writes, so that it can tell whether a backup holds the current
// state without reading either.
const hashKey = "cairn-sha256"

// read returns an object's content.
func (b *Backend) read(ctx context.Context, key string) ([]byte, error) {
	var data []byte
	err := b.retry(ctx, "reading", key, func() (err error) {
		data, err = b.bucket.ReadAll(ctx, key)
		return err
	})
	return data, err
}

// write makes data the content of the object key, atomically: a reader
// sees the old content or the new. With ifNotExist it fails, with a
// gcerrors.FailedPrecondition code, if the object exists (a conditional
// write: S3 If-None-Match: *, GCS ifGenerationMatch=0, Azure
// If-None-Match: *).
func (b *Backend) write(ctx context.Context, key string, data []byte, ifNotExist bool) error {
	return b.writeMeta(ctx, key, data, ifNotExist, nil)
}

func (b *Backend) writeMeta(ctx context.Context, key string, data []byte, ifNotExist bool, meta map[string]string) error {
	opts := &blob.WriterOptions{IfNotExist: ifNotExist, Metadata: meta, ContentType: "application/octet-stream"}
	return b.retry(ctx, "writing", key, func() error { return b.bucket.WriteAll(ctx, key, data, opts) })
}

// remove deletes an object; one that does not exist is no error.
func (b *Backend) remove(ctx context.Context, key string) error {
	err := b.retry(ctx, "removing", key, func() error { return b.bucket.Delete(ctx, key) })
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return err
}

// removeAll deletes objects, several at once, in no particular order.
func (b *Backend) removeAll(ctx context.Context, keys []string) error {
	const inFlight = 16
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		errs []error
		sem  = make(chan struct{}, inFlight)
	)
	for _, k := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := b.remove(ctx, k); err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// keys lists the keys under prefix, in order; with delimiter "/", the
// folders directly under prefix are listed (ending with "/") instead of
// what they hold.
func (b *Backend) keys(ctx context.Context, prefix, delimiter string) ([]string, error) {
	var out []string
	err := b.retry(ctx, "listing", prefix, func() error {
		out = out[:0]
		it := b.bucket.List(&blob.ListOptions{Prefix: prefix, Delimiter: delimiter})
		for {
			obj, err := it.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			out = append(out, obj.Key)
		}
	})
	return out, err
}

// retry runs a request, retrying it with exponential backoff while it fails
// for a reason that may pass, for up to Options.RetryFor. The error names
// the backend's URL (without secrets) and the object.
func (b *Backend) retry(ctx context.Context, what, key string, do func() error) error {
	deadline := time.Now().Add(b.opts.RetryFor)
	wait := 50 * time.Millisecond
	for {
		err := do()
		if err == nil || !transient(err) || ctx.Err() != nil {
			return b.wrap(what, key, err)
		}
		if time.Now().Add(wait).After(deadline) {
			return fmt.Errorf("%s %s in backend %s failed for %s, retried: %w", what, key, b.url, b.opts.RetryFor, err)
		}
		select {
		case <-ctx.Done():
			return b.wrap(what, key, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// wrap names the backend and the object in an error, keeping its gcerrors
// code.
func (b *Backend) wrap(what, key string, err error) error {
	if err == nil {
		return nil
	}
	return &objectError{what: what, key: key, url: b.url, err: err}
}

type objectError struct {
	what, key, url string
	err            error
}

func (e *objectError) Error() string {
	return fmt.Sprintf("%s %s in backend %s: %v", e.what, e.key, e.url, e.err)
}

func (e *objectError) Unwrap() error { return e.err }

// transient reports whether a request's failure may pass: the server is
// down, slow, overloaded or failed inside.
func transient(err error) bool {
	switch gcerrors.Code(err) {
	case gcerrors.Internal, gcerrors.ResourceExhausted, gcerrors.DeadlineExceeded:
		return true
	case gcerrors.NotFound, gcerrors.FailedPrecondition, gcerrors.PermissionDenied, gcerrors.AlreadyExists, gcerrors.InvalidArgument:
		return false
	}
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return true
	}
	var status interface{ HTTPStatusCode() int }
	if errors.As(err, &status) {
		code := status.HTTPStatusCode()
		return code >= 500 || code == 429 || code == 408
	}
	return false
}

// hashOf is the hex SHA-256 of data.
func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
