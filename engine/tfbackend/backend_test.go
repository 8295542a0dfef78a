package tfbackend

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/internal/pgtest"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

// TestCairnURL maps each backend's arguments (and Terraform's
// environment variables) to the place where Cairn keeps its stacks.
func TestCairnURL(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		typ  string
		args map[string]any
		env  func(string) string
		want string
	}{
		{"local default", "local", nil, nil, "file://" + dir + "/terraform.tfstate.cairn"},
		{"local path", "local", map[string]any{"path": "state/net.tfstate"}, nil, "file://" + dir + "/state/net.tfstate.cairn"},
		{"s3", "s3", map[string]any{"bucket": "states", "key": "net/terraform.tfstate", "region": "eu-west-1"}, nil,
			"s3://states/net/terraform.tfstate.cairn?region=eu-west-1"},
		{"s3 endpoint, path style, profile", "s3", map[string]any{"bucket": "states", "key": "k", "region": "us-east-1",
			"endpoints": map[string]any{"s3": "http://127.0.0.1:7070"}, "use_path_style": true, "profile": "ci"}, nil,
			"s3://states/k.cairn?endpoint=http%3A%2F%2F127.0.0.1%3A7070&profile=ci&region=us-east-1&use_path_style=true"},
		{"s3 from the environment", "s3", map[string]any{"bucket": "b", "key": "k", "force_path_style": "true"},
			env("AWS_DEFAULT_REGION", "ap-south-1", "AWS_ENDPOINT_URL_S3", "http://h:1"),
			"s3://b/k.cairn?endpoint=http%3A%2F%2Fh%3A1&region=ap-south-1&use_path_style=true"},
		{"gcs", "gcs", map[string]any{"bucket": "states", "prefix": "net/"}, nil, "gs://states/net.cairn"},
		{"gcs without prefix", "gcs", map[string]any{"bucket": "states"}, nil, "gs://states/.cairn"},
		{"azurerm", "azurerm", map[string]any{"storage_account_name": "acct", "container_name": "tf", "key": "net.tfstate"}, nil,
			"azblob://tf/net.tfstate.cairn?storage_account=acct"},
		{"azurerm emulator", "azurerm", map[string]any{"storage_account_name": "devstoreaccount1", "container_name": "tf", "key": "k",
			"endpoint": "http://127.0.0.1:10000/devstoreaccount1"}, nil,
			"azblob://tf/k.cairn?domain=127.0.0.1%3A10000&localemu=true&protocol=http&storage_account=devstoreaccount1"},
		{"azurerm china", "azurerm", map[string]any{"storage_account_name": "a", "container_name": "c", "key": "k"},
			env("ARM_ENVIRONMENT", "china"), "azblob://c/k.cairn?domain=blob.core.chinacloudapi.cn&storage_account=a"},
		{"pg", "pg", nil, env("PG_CONN_STR", "postgres://u:p@db/tf"), "postgres://u:p@db/tf"},
	} {
		b, err := New(c.typ, c.args, Options{Dir: dir, Getenv: c.env})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got, err := b.CairnURL(); err != nil || got != c.want {
			t.Errorf("%s: CairnURL() = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestArgErrors: what Terraform refuses, Cairn refuses, naming the
// argument (or the type) and what to do.
func TestArgErrors(t *testing.T) {
	for _, c := range []struct {
		name     string
		typ      string
		args     map[string]any
		arg      string
		contains string
	}{
		{"unknown type", "s4", nil, "", `there is no Terraform backend named "s4"`},
		{"unread type", "consul", nil, "", "terraform state pull > FILE"},
		{"missing key", "s3", map[string]any{"bucket": "b", "region": "r"}, "key", `backend "s3" needs key`},
		{"missing region", "s3", map[string]any{"bucket": "b", "key": "k"}, "region", "AWS_REGION or AWS_DEFAULT_REGION"},
		{"key ends in /", "s3", map[string]any{"bucket": "b", "key": "k/", "region": "r"}, "key", "must not start or end with /"},
		{"unknown argument", "gcs", map[string]any{"bucket": "b", "key": "k"}, "key", `backend "gcs" has no argument "key"`},
		{"unsupported", "s3", map[string]any{"bucket": "b", "key": "k", "region": "r", "assume_role": map[string]any{}}, "assume_role", "AWS's standard chain"},
		{"wrong type", "s3", map[string]any{"bucket": "b", "key": "k", "region": "r", "use_path_style": "maybe"}, "use_path_style", "true or false"},
		{"both path styles", "s3", map[string]any{"bucket": "b", "key": "k", "region": "r", "use_path_style": true, "force_path_style": true}, "force_path_style", "use_path_style only"},
		{"missing address", "http", nil, "address", "TF_HTTP_ADDRESS"},
		{"azure secret", "azurerm", map[string]any{"storage_account_name": "a", "container_name": "c", "key": "k", "client_secret": "x"}, "client_secret", "AZURE_CLIENT_SECRET"},
	} {
		_, err := New(c.typ, c.args, Options{})
		var ae *ArgError
		if !errors.As(err, &ae) || ae.Arg != c.arg || !strings.Contains(err.Error(), c.contains) {
			t.Errorf("%s: error %v (argument %v); want one on %q saying %q", c.name, err, ae, c.arg, c.contains)
		}
	}
	// Credentials written in the block cannot go into Cairn's URL.
	b, err := New("s3", map[string]any{"bucket": "b", "key": "k", "region": "r", "access_key": "AKIA", "secret_key": "s"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ae *ArgError
	if _, err := b.CairnURL(); !errors.As(err, &ae) || ae.Arg != "access_key" || !strings.Contains(err.Error(), "CAIRN_BACKEND_URL") {
		t.Errorf("CairnURL with access_key: %v", err)
	}
	if b, _ := New("http", map[string]any{"address": "http://h/s"}, Options{}); b != nil {
		if _, err := b.CairnURL(); err == nil || !strings.Contains(err.Error(), "CAIRN_BACKEND_URL") {
			t.Errorf("CairnURL of http: %v", err)
		}
	}
}

// TestObjectKeys: each workspace's state is where Terraform puts it.
func TestObjectKeys(t *testing.T) {
	for _, c := range []struct {
		typ  string
		args map[string]any
		ws   string
		want string
	}{
		{"s3", map[string]any{"bucket": "b", "key": "net/tf.tfstate", "region": "r"}, "default", "net/tf.tfstate"},
		{"s3", map[string]any{"bucket": "b", "key": "net/tf.tfstate", "region": "r"}, "prod", "env:/prod/net/tf.tfstate"},
		{"s3", map[string]any{"bucket": "b", "key": "k", "region": "r", "workspace_key_prefix": "ws"}, "prod", "ws/prod/k"},
		{"gcs", map[string]any{"bucket": "b", "prefix": "net"}, "default", "net/default.tfstate"},
		{"gcs", map[string]any{"bucket": "b"}, "prod", "prod.tfstate"},
		{"azurerm", map[string]any{"storage_account_name": "a", "container_name": "c", "key": "net.tfstate"}, "prod", "net.tfstateenv:prod"},
	} {
		b, err := New(c.typ, c.args, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := b.objectKey(c.ws); got != c.want {
			t.Errorf("%s %v, workspace %s: key %q, want %q", c.typ, c.args, c.ws, got, c.want)
		}
	}
}

func TestFromURL(t *testing.T) {
	for _, c := range []struct{ url, where, ws string }{
		{"s3://states/net/terraform.tfstate?region=eu-west-1&use_path_style=true", "s3://states/net/terraform.tfstate", "default"},
		{"gs://states/net/prod.tfstate", "gs://states/net/prod.tfstate", "prod"},
		{"azblob://tf/net.tfstate?storage_account=acct", "azblob://tf/net.tfstate (storage account acct)", "default"},
		{"https://me:pw@state.example/net", "https://state.example/net", "default"},
	} {
		b, ws, err := FromURL(c.url, nil)
		if err != nil {
			t.Errorf("%s: %v", c.url, err)
			continue
		}
		if got := b.Where(ws); got != c.where || ws != c.ws {
			t.Errorf("%s: %s, workspace %s; want %s, %s", c.url, got, ws, c.where, c.ws)
		}
	}
	for _, c := range []struct{ url, err string }{
		{"s3://b/k", `backend "s3" needs region`},
		{"s3://b/k?region=r&colour=red", "not colour"},
		{"gs://b/net/state.json", "WORKSPACE.tfstate"},
		{"ftp://h/x", "not ftp://"},
	} {
		if _, _, err := FromURL(c.url, nil); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: error %v, want one saying %q", c.url, err, c.err)
		}
	}
}

const state = `{"version": 4, "terraform_version": "1.12.6", "serial": 1, "lineage": "l", "outputs": {}, "resources": []}`

func TestReadLocal(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "terraform.tfstate.d", "prod"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "terraform.tfstate.d", "prod", "terraform.tfstate"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := New("local", nil, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := b.ReadState(context.Background(), "prod"); err != nil || string(data) != state {
		t.Errorf("ReadState(prod) = %q, %v", data, err)
	}
	if _, err := b.ReadState(context.Background(), ""); !errors.Is(err, ErrNoState) || !strings.Contains(err.Error(), filepath.Join(dir, "terraform.tfstate")) {
		t.Errorf("ReadState(default) = %v; want ErrNoState naming the file", err)
	}
}

// TestReadHTTP reads from a real HTTP server: a GET of the address with
// basic authentication; 404 is no state, 401 a refusal.
func TestReadHTTP(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pw, ok := r.BasicAuth()
		switch {
		case r.Method != http.MethodGet:
			w.WriteHeader(http.StatusMethodNotAllowed)
		case !ok || user != "ci" || pw != "hunter2":
			w.WriteHeader(http.StatusUnauthorized)
		case r.URL.Path == "/states/net":
			_, _ = w.Write([]byte(state))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	read := func(path, pw string) ([]byte, error) {
		b, err := New("http", map[string]any{"address": srv.URL + path, "username": "ci"}, Options{Getenv: env("TF_HTTP_PASSWORD", pw)})
		if err != nil {
			t.Fatal(err)
		}
		return b.ReadState(context.Background(), "default")
	}
	if data, err := read("/states/net", "hunter2"); err != nil || string(data) != state {
		t.Errorf("read = %q, %v", data, err)
	}
	if _, err := read("/states/none", "hunter2"); !errors.Is(err, ErrNoState) {
		t.Errorf("read of a missing state: %v", err)
	}
	if _, err := read("/states/net", "wrong"); err == nil || !strings.Contains(err.Error(), "refused the credentials") || strings.Contains(err.Error(), "wrong") {
		t.Errorf("read with a wrong password: %v", err)
	}
}

// TestReadPG reads Terraform's table in a real PostgreSQL: the row named
// after the workspace, in schema_name (terraform_remote_state by default).
func TestReadPG(t *testing.T) {
	srv := pgtest.New(t)
	url := srv.Database(t, "tfbackend")
	ctx := context.Background()
	for _, sql := range []string{
		`CREATE SCHEMA terraform_remote_state`,
		`CREATE TABLE terraform_remote_state.states (id bigserial primary key, name text, data text)`,
		`INSERT INTO terraform_remote_state.states (name, data) VALUES ('default', '` + state + `'), ('prod', '{"version": 4, "serial": 9}')`,
		`CREATE SCHEMA other`,
		`CREATE TABLE other.states (id bigserial primary key, name text, data text)`,
		`INSERT INTO other.states (name, data) VALUES ('default', '{"version": 4, "serial": 7}')`,
	} {
		if err := pgtest.Exec(ctx, url, sql); err != nil {
			t.Fatal(err)
		}
	}
	read := func(args map[string]any, ws string) (string, error) {
		b, err := New("pg", args, Options{Getenv: env("PG_CONN_STR", url)})
		if err != nil {
			t.Fatal(err)
		}
		data, err := b.ReadState(ctx, ws)
		return string(data), err
	}
	if got, err := read(nil, ""); err != nil || got != state {
		t.Errorf("default = %q, %v", got, err)
	}
	if got, err := read(nil, "prod"); err != nil || !strings.Contains(got, `"serial": 9`) {
		t.Errorf("prod = %q, %v", got, err)
	}
	if got, err := read(map[string]any{"schema_name": "other"}, "default"); err != nil || !strings.Contains(got, `"serial": 7`) {
		t.Errorf("schema other = %q, %v", got, err)
	}
	if _, err := read(nil, "staging"); !errors.Is(err, ErrNoState) || !strings.Contains(err.Error(), `"staging"`) {
		t.Errorf("staging: %v", err)
	}
	bad := "postgres://cairn:wrong-pw@127.0.0.1:1/tfbackend"
	b, err := New("pg", map[string]any{"conn_str": bad}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.ReadState(ctx, ""); err == nil || strings.Contains(err.Error(), "wrong-pw") {
		t.Errorf("a server that is not there: %v (the password must be masked)", err)
	}
}
