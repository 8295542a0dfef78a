package tfbackend

import (
	"fmt"
	"net/url"
	"path"
	"slices"
	"strings"
)

// FromURL reads the URL of one Terraform state: s3://BUCKET/KEY,
// gs://BUCKET/PREFIX/WORKSPACE.tfstate, azblob://CONTAINER/KEY, or an
// http(s):// address (basic authentication from its user and password).
// The query of s3 URLs takes region, endpoint, use_path_style and
// profile; that of azblob URLs storage_account (required) and endpoint:
// the arguments of Terraform's backends of the same names. It returns the
// backend and the workspace that names the state.
func FromURL(raw string, getenv func(string) string) (*Backend, string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, "", err
	}
	q := u.Query()
	key := strings.TrimPrefix(u.Path, "/")
	args := map[string]any{}
	take := func(names ...string) error {
		for k := range q {
			if !slices.Contains(names, k) {
				return fmt.Errorf("%s URLs take the query parameters %s, not %s", u.Scheme, strings.Join(names, ", "), k)
			}
		}
		for _, k := range names {
			if v := q.Get(k); v != "" {
				args[k] = v
			}
		}
		return nil
	}
	ws, typ := "default", ""
	switch u.Scheme {
	case "s3":
		typ, args["bucket"], args["key"] = "s3", u.Host, key
		err = take("region", "endpoint", "use_path_style", "profile")
	case "gs":
		name, ok := strings.CutSuffix(path.Base(key), ".tfstate")
		if !ok || key == "" {
			return nil, "", fmt.Errorf("a gs:// URL names a state object of Terraform's gcs backend, PREFIX/WORKSPACE.tfstate")
		}
		typ, ws, args["bucket"] = "gcs", name, u.Host
		if dir := path.Dir(key); dir != "." {
			args["prefix"] = dir
		}
		err = take()
	case "azblob":
		typ, args["container_name"], args["key"] = "azurerm", u.Host, key
		err = take("storage_account", "endpoint")
		if v, ok := args["storage_account"]; ok {
			delete(args, "storage_account")
			args["storage_account_name"] = v
		}
	case "http", "https":
		typ = "http"
		if u.User != nil {
			args["username"] = u.User.Username()
			if pw, ok := u.User.Password(); ok {
				args["password"] = pw
			}
			u.User = nil
		}
		args["address"] = u.String()
	default:
		return nil, "", fmt.Errorf("a Terraform state is read from a file, a folder of Terraform files, or an s3://, gs://, azblob://, http:// or https:// URL, not %s://", u.Scheme)
	}
	if err != nil {
		return nil, "", err
	}
	b, err := New(typ, args, Options{Getenv: getenv})
	return b, ws, err
}
