package bucket

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/user"
	"strings"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/azureblob" // azblob://
	_ "gocloud.dev/blob/gcsblob"   // gs://
	_ "gocloud.dev/blob/s3blob"    // s3://
	"gocloud.dev/gcerrors"

	"github.com/cairn-iac/cairn/engine/backend"
	"github.com/cairn-iac/cairn/engine/backend/diy"
)

// Options configure a bucket backend.
type Options struct {
	backend.Options
	// RetryFor bounds how long a request that failed for a reason that may
	// pass (the server down, slow or overloaded) is retried, with
	// exponential backoff, before the error is returned; 0 means 30 s.
	RetryFor time.Duration
}

// Backend keeps stacks in an object storage bucket, in Pulumi's DIY layout.
type Backend struct {
	bucket *blob.Bucket
	url    string // redacted, for messages
	opts   Options
	host   string
	user   string
}

var _ backend.Backend = (*Backend)(nil)

// Schemes are the URL schemes of the stores a bucket backend opens.
var Schemes = []string{"s3", "gs", "azblob"}

// IsURL reports whether rawURL names a bucket: s3://, gs:// or azblob://.
func IsURL(rawURL string) bool {
	scheme, _, _ := strings.Cut(rawURL, "://")
	for _, s := range Schemes {
		if scheme == s {
			return true
		}
	}
	return false
}

// Open opens the backend of a bucket URL, scheme://bucket[/prefix][?query]
// with the query parameters of gocloud.dev's openers, which `pulumi login`
// takes too (s3: region, endpoint, profile, use_path_style or
// s3ForcePathStyle, awssdk, …; azblob: storage_account, domain, protocol,
// …). Credentials come from each cloud's standard chain. It checks that the
// bucket can be reached and reads (or, in an empty bucket, writes) the
// layout's meta.yaml.
func Open(ctx context.Context, rawURL string, opts Options) (*Backend, error) {
	if opts.RetryFor == 0 {
		opts.RetryFor = 30 * time.Second
	}
	u, err := url.Parse(rawURL)
	if err != nil || !IsURL(rawURL) || u.Host == "" {
		return nil, fmt.Errorf("backend URL %q is not a bucket URL: use s3://BUCKET[/PREFIX], gs://BUCKET[/PREFIX] or azblob://CONTAINER[/PREFIX]", Redact(rawURL))
	}
	prefix := strings.Trim(u.Path, "/")
	u.Path = ""
	bucket, err := blob.OpenBucket(ctx, u.String())
	if err != nil {
		// The driver's error quotes the URL as it is.
		return nil, fmt.Errorf("opening the bucket of backend %s: %s", Redact(rawURL), redactIn(err.Error(), rawURL))
	}
	if prefix != "" {
		bucket = blob.PrefixedBucket(bucket, prefix+"/")
	}
	b := &Backend{bucket: bucket, url: Redact(rawURL), opts: opts}
	if b.host, err = os.Hostname(); err != nil {
		return nil, fmt.Errorf("reading the host name, which stack locks record: %w", err)
	}
	b.user = os.Getenv("USER")
	if u, err := user.Current(); err == nil {
		b.user = u.Username
	}
	if err := b.ensureMeta(ctx); err != nil {
		bucket.Close()
		return nil, err
	}
	return b, nil
}

// URL implements backend.Backend: the URL it was opened with, secrets
// masked.
func (b *Backend) URL() string { return b.url }

// Close releases the bucket's connections.
func (b *Backend) Close() error { return b.bucket.Close() }

// Redact masks what may be a secret in a bucket URL: a password, and the
// values of query parameters that name a key, secret, token or signature.
func Redact(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a URL that does not parse)"
	}
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	q := u.Query()
	for name := range q {
		if secretParam(name) {
			q.Set(name, "REDACTED")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// redactIn masks in msg the secrets of rawURL, as Redact does.
func redactIn(msg, rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return msg
	}
	if pw, ok := u.User.Password(); ok && pw != "" {
		msg = strings.ReplaceAll(msg, pw, "REDACTED")
	}
	for name, values := range u.Query() {
		if secretParam(name) {
			for _, v := range values {
				if v != "" {
					msg = strings.ReplaceAll(msg, v, "REDACTED")
				}
			}
		}
	}
	return msg
}

// secretParam reports whether a query parameter's name says it holds a
// secret.
func secretParam(name string) bool {
	lower := strings.ToLower(name)
	for _, s := range []string{"key", "secret", "token", "sig", "password", "credential"} {
		if strings.Contains(lower, s) {
			return true
		}
	}
	return false
}

// ensureMeta checks the layout version of the bucket, writing meta.yaml in
// a new one. It is the first request to the bucket, so its errors say
// whether the bucket exists and the credentials are good.
func (b *Backend) ensureMeta(ctx context.Context) error {
	data, err := b.read(ctx, diy.Meta)
	if gcerrors.Code(err) == gcerrors.NotFound && !b.missingBucket(ctx) {
		if legacy, _ := b.keys(ctx, diy.StacksDir+"/", ""); len(legacy) > 0 {
			for _, k := range legacy {
				if !strings.Contains(strings.TrimPrefix(k, diy.StacksDir+"/"), "/") {
					return fmt.Errorf("%s holds stacks in the DIY layout of version 0 (not scoped by project); "+
						"run `pulumi state upgrade` on it first", b.url)
				}
			}
		}
		return b.write(ctx, diy.Meta, diy.MetaContent(), false)
	}
	if err != nil {
		return b.explain(ctx, err)
	}
	return diy.CheckMeta(data, b.url+" "+diy.Meta)
}

// missingBucket reports whether the bucket itself does not exist.
func (b *Backend) missingBucket(ctx context.Context) bool {
	ok, err := b.bucket.IsAccessible(ctx)
	return err == nil && !ok
}

// explain turns the error of the first request into one that says what to
// do: a bucket that does not exist, credentials that are refused.
func (b *Backend) explain(ctx context.Context, err error) error {
	switch {
	case gcerrors.Code(err) == gcerrors.PermissionDenied || looksUnauthorized(err):
		return fmt.Errorf("the credentials for backend %s were refused: %w; check the cloud's credentials "+
			"(environment variables, shared credential files, instance roles)", b.url, err)
	case gcerrors.Code(err) == gcerrors.NotFound || b.missingBucket(ctx):
		return fmt.Errorf("the bucket of backend %s does not exist: %w; create it first", b.url, err)
	}
	return err
}

// looksUnauthorized reports an HTTP 401 or 403, which some drivers leave
// without a gcerrors code.
func looksUnauthorized(err error) bool {
	var status interface{ HTTPStatusCode() int }
	if errors.As(err, &status) {
		return status.HTTPStatusCode() == 401 || status.HTTPStatusCode() == 403
	}
	msg := err.Error()
	for _, s := range []string{"InvalidAccessKeyId", "SignatureDoesNotMatch", "AuthenticationFailed", "AuthorizationFailure", "status code: 403", "StatusCode=403", "RESPONSE 403", "Error 403", "Error 401"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
