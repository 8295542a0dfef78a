package tfbackend

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	gcaws "gocloud.dev/aws"
	"gocloud.dev/blob"
	"gocloud.dev/blob/azureblob"
	"gocloud.dev/blob/gcsblob"
	"gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"
	"gocloud.dev/gcp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
	"google.golang.org/api/option"
)

// readObject reads a workspace's state object from s3, gcs or azurerm.
func (b *Backend) readObject(ctx context.Context, workspace string) ([]byte, error) {
	bucket, err := b.openBucket(ctx)
	if err != nil {
		return nil, err
	}
	defer bucket.Close()
	r, err := bucket.NewReader(ctx, b.objectKey(workspace), nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, maxState))
}

// LockInfo is what Terraform writes in its lock: who holds it, doing what.
type LockInfo struct {
	ID        string `json:"ID"`
	Operation string `json:"Operation"`
	Who       string `json:"Who"`
	Version   string `json:"Version"`
	Created   string `json:"Created"`
	Path      string `json:"Path"`
}

func (l *LockInfo) String() string {
	return fmt.Sprintf("held by %s since %s (operation %s, Terraform %s, lock ID %s)", l.Who, l.Created, l.Operation, l.Version, l.ID)
}

// Lock returns Terraform's lock of a workspace's state where Cairn can see
// it, or nil: the lock file an s3 backend with use_lockfile writes beside
// the state (<key>.tflock), or the gcs backend's <prefix>/<workspace>.tflock.
// Reading a state does not need the lock, as in Terraform, but a state
// read while it is held may be about to change.
func (b *Backend) Lock(ctx context.Context, workspace string) (*LockInfo, error) {
	var key string
	switch {
	case b.Type == "s3" && b.on("use_lockfile"):
		key = b.objectKey(workspace) + ".tflock"
	case b.Type == "gcs":
		key = strings.TrimSuffix(b.objectKey(workspace), ".tfstate") + ".tflock"
	default:
		return nil, nil
	}
	bucket, err := b.openBucket(ctx)
	if err != nil {
		return nil, err
	}
	defer bucket.Close()
	data, err := bucket.ReadAll(ctx, key)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("reading Terraform's lock %s: %w", key, err)
	}
	var info LockInfo
	if err := json.Unmarshal(data, &info); err != nil {
		return &LockInfo{Who: "unknown (the lock " + key + " is not Terraform's JSON)"}, nil
	}
	return &info, nil
}

// openBucket opens the bucket (or container) of an object store backend,
// with the credentials its arguments give, else the cloud's standard
// chain.
func (b *Backend) openBucket(ctx context.Context) (*blob.Bucket, error) {
	switch b.Type {
	case "s3":
		q := url.Values{"region": {b.s("region")}}
		if e := b.s3Endpoint(); e != "" {
			q.Set("endpoint", e)
		}
		if p := b.s("profile"); p != "" {
			q.Set("profile", p)
		}
		cfg, err := gcaws.V2ConfigFromURLParams(ctx, q)
		if err != nil {
			return nil, err
		}
		if ak := b.s("access_key"); ak != "" {
			cfg.Credentials = credentials.NewStaticCredentialsProvider(ak, b.s("secret_key"), b.s("token"))
		}
		pathStyle := b.on("use_path_style") || b.on("force_path_style")
		client := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = pathStyle })
		return s3blob.OpenBucket(ctx, client, b.s("bucket"), nil)
	case "gcs":
		client, err := b.gcsClient(ctx)
		if err != nil {
			return nil, err
		}
		opts := &gcsblob.Options{}
		if e := b.s("storage_custom_endpoint"); e != "" {
			opts.ClientOptions = append(opts.ClientOptions, option.WithEndpoint(e))
		}
		return gcsblob.OpenBucket(ctx, client, b.s("bucket"), opts)
	case "azurerm":
		client, err := b.azureClient()
		if err != nil {
			return nil, err
		}
		return azureblob.OpenBucket(ctx, client, nil)
	}
	return nil, fmt.Errorf("backend %q is not an object store", b.Type)
}

// gcsClient is an HTTP client with the credentials of a gcs backend:
// access_token, credentials (a key file's path or its JSON), else
// Application Default Credentials; without any, an anonymous one when a
// custom endpoint (an emulator) is set.
func (b *Backend) gcsClient(ctx context.Context) (*gcp.HTTPClient, error) {
	const scope = "https://www.googleapis.com/auth/devstorage.read_write"
	if tok := b.s("access_token"); tok != "" {
		return gcp.NewHTTPClient(gcp.DefaultTransport(), oauth2.StaticTokenSource(&oauth2.Token{AccessToken: tok}))
	}
	if c := b.s("credentials"); c != "" {
		data := []byte(c)
		if !strings.HasPrefix(strings.TrimSpace(c), "{") {
			var err error
			if data, err = os.ReadFile(c); err != nil {
				return nil, &ArgError{Arg: "credentials", Summary: "Cannot read credentials", Detail: err.Error()}
			}
		}
		var kind struct {
			Type google.CredentialsType `json:"type"`
		}
		if err := json.Unmarshal(data, &kind); err != nil || (kind.Type != google.ServiceAccount && kind.Type != google.AuthorizedUser) {
			return nil, &ArgError{Arg: "credentials", Summary: "Invalid credentials", Detail: "credentials must be a service account's key file (or an authorized user's), as JSON"}
		}
		creds, err := google.CredentialsFromJSONWithType(ctx, data, kind.Type, scope)
		if err != nil {
			return nil, &ArgError{Arg: "credentials", Summary: "Invalid credentials", Detail: err.Error()}
		}
		return gcp.NewHTTPClient(gcp.DefaultTransport(), gcp.CredentialsTokenSource(creds))
	}
	creds, err := gcp.DefaultCredentials(ctx)
	if err != nil {
		if b.s("storage_custom_endpoint") != "" || os.Getenv("STORAGE_EMULATOR_HOST") != "" {
			return gcp.NewAnonymousHTTPClient(gcp.DefaultTransport()), nil
		}
		return nil, fmt.Errorf("no Google Cloud credentials: give credentials or access_token, or set up Application Default Credentials: %w", err)
	}
	return gcp.NewHTTPClient(gcp.DefaultTransport(), gcp.CredentialsTokenSource(creds))
}

// azureClient is a client of an azurerm backend's container: with
// access_key (shared key), sas_token, else Azure's default chain.
func (b *Backend) azureClient() (*container.Client, error) {
	svc, err := b.azureService()
	if err != nil {
		return nil, err
	}
	account := b.s("storage_account_name")
	var base string
	switch {
	case svc.emulator:
		base = fmt.Sprintf("%s://%s/%s", svc.protocol, svc.domain, account)
	case svc.domain != "" && b.s("endpoint") != "":
		base = fmt.Sprintf("%s://%s", svc.protocol, svc.domain)
	default:
		domain := svc.domain
		if domain == "" {
			domain = azureDomains["public"]
		}
		base = fmt.Sprintf("https://%s.%s", account, domain)
	}
	containerURL, err := url.JoinPath(base, b.s("container_name"))
	if err != nil {
		return nil, err
	}
	if key := b.s("access_key"); key != "" {
		cred, err := azblob.NewSharedKeyCredential(account, key)
		if err != nil {
			return nil, &ArgError{Arg: "access_key", Summary: "Invalid access key", Detail: err.Error()}
		}
		return container.NewClientWithSharedKeyCredential(containerURL, cred, nil)
	}
	if sas := b.s("sas_token"); sas != "" {
		return container.NewClientWithNoCredential(containerURL+"?"+strings.TrimPrefix(sas, "?"), nil)
	}
	return azureblob.NewDefaultClient(azureblob.ServiceURL(base), azureblob.ContainerName(b.s("container_name")))
}
