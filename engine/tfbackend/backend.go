package tfbackend

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Backend is a Terraform backend's configuration: its type and its
// arguments, with Terraform's environment variables and defaults applied.
type Backend struct {
	Type string
	args map[string]any
	dir  string
}

// Options say where a configuration is read.
type Options struct {
	// Dir is the configuration's folder: the local backend's paths are
	// relative to it.
	Dir string
	// Getenv reads the environment (os.Getenv); nil reads none.
	Getenv func(string) string
}

// ArgError is an error in a backend's arguments; Arg is the argument's
// name, "" for the configuration as a whole (an unknown type, say).
type ArgError struct {
	Arg, Summary, Detail string
}

func (e *ArgError) Error() string {
	if e.Arg == "" {
		return e.Summary + ": " + e.Detail
	}
	return fmt.Sprintf("%s: argument %s: %s", e.Summary, e.Arg, e.Detail)
}

// ErrNoState is returned by ReadState when the backend holds no state for
// the workspace.
var ErrNoState = errors.New("no state was found for the workspace")

// spec is what Cairn knows of the arguments of a backend type.
type spec struct {
	// required arguments, after env defaults are applied.
	required []string
	// env gives, per argument, the variables Terraform reads when it is
	// not set, in order.
	env map[string][]string
	// ignored are the arguments Terraform takes that do not change how a
	// state is found or read (locking, encryption of what is written,
	// retries, …): accepted, unused.
	ignored []string
	// unsupported are the arguments Terraform takes that Cairn cannot
	// honour yet, with what to do instead.
	unsupported map[string]string
	// used are the arguments Cairn reads.
	used []string
}

const (
	awsCreds   = "Cairn takes AWS credentials from access_key and secret_key, profile, or AWS's standard chain (AWS_ACCESS_KEY_ID, ~/.aws, instance roles); set them there instead"
	gcsCreds   = "Cairn takes Google Cloud credentials from credentials, access_token, or Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login); set them there instead"
	azureCreds = "Cairn takes Azure credentials from access_key (ARM_ACCESS_KEY), sas_token (ARM_SAS_TOKEN), or Azure's default chain (AZURE_CLIENT_ID, AZURE_TENANT_ID and AZURE_CLIENT_SECRET, az login, managed identity); set them there instead"
)

var specs = map[string]*spec{
	"local": {used: []string{"path", "workspace_dir"}},
	"s3": {
		required: []string{"bucket", "key", "region"},
		env: map[string][]string{"region": {"AWS_REGION", "AWS_DEFAULT_REGION"}, "endpoint": {"AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT"},
			"profile": {"AWS_PROFILE"}},
		used: []string{"bucket", "key", "region", "endpoint", "endpoints", "use_path_style", "force_path_style", "profile",
			"workspace_key_prefix", "access_key", "secret_key", "token", "use_lockfile"},
		ignored: []string{"skip_region_validation", "encrypt", "acl", "kms_key_id", "dynamodb_table", "dynamodb_endpoint", "state_tags", "lock_tags",
			"iam_endpoint", "sts_endpoint", "sts_region", "skip_credentials_validation", "skip_metadata_api_check",
			"skip_requesting_account_id", "retry_mode", "max_retries", "skip_s3_checksum", "forbidden_account_ids",
			"allowed_account_ids", "use_dualstack_endpoint", "use_fips_endpoint", "ec2_metadata_service_endpoint",
			"ec2_metadata_service_endpoint_mode"},
		unsupported: map[string]string{
			"sse_customer_key": "Cairn cannot read objects encrypted with a customer-provided key (SSE-C)",
			"assume_role":      awsCreds, "assume_role_with_web_identity": awsCreds, "role_arn": awsCreds, "session_name": awsCreds,
			"external_id": awsCreds, "assume_role_duration_seconds": awsCreds, "assume_role_policy": awsCreds,
			"assume_role_policy_arns": awsCreds, "assume_role_tags": awsCreds, "assume_role_transitive_tag_keys": awsCreds,
			"shared_credentials_file": awsCreds, "shared_credentials_files": awsCreds, "shared_config_files": awsCreds,
			"custom_ca_bundle": "set AWS_CA_BUNDLE instead", "http_proxy": "set HTTP_PROXY instead",
			"https_proxy": "set HTTPS_PROXY instead", "no_proxy": "set NO_PROXY instead",
			"insecure": "Cairn always checks the server's certificate"},
	},
	"gcs": {
		required: []string{"bucket"},
		env: map[string][]string{"credentials": {"GOOGLE_BACKEND_CREDENTIALS", "GOOGLE_CREDENTIALS"},
			"access_token":            {"GOOGLE_OAUTH_ACCESS_TOKEN"},
			"storage_custom_endpoint": {"GOOGLE_BACKEND_STORAGE_CUSTOM_ENDPOINT", "GOOGLE_STORAGE_CUSTOM_ENDPOINT"},
			"encryption_key":          {"GOOGLE_ENCRYPTION_KEY"}},
		used:    []string{"bucket", "prefix", "credentials", "access_token", "storage_custom_endpoint"},
		ignored: []string{"kms_encryption_key"},
		unsupported: map[string]string{
			"impersonate_service_account": gcsCreds, "impersonate_service_account_delegates": gcsCreds,
			"encryption_key":  "Cairn cannot read objects encrypted with a customer-supplied key",
			"universe_domain": "Cairn reads Google Cloud's default universe only"},
	},
	"azurerm": {
		required: []string{"storage_account_name", "container_name", "key"},
		env: map[string][]string{"access_key": {"ARM_ACCESS_KEY"}, "sas_token": {"ARM_SAS_TOKEN"},
			"environment": {"ARM_ENVIRONMENT"}},
		used: []string{"storage_account_name", "container_name", "key", "access_key", "sas_token", "environment", "endpoint"},
		ignored: []string{"snapshot", "resource_group_name", "subscription_id", "timeout_seconds", "use_azuread_auth", "use_cli",
			"use_msi", "use_aks_workload_identity", "encryption_scope", "metadata_host", "lookup_blob_endpoint"},
		unsupported: map[string]string{
			"client_id": azureCreds, "client_id_file_path": azureCreds, "tenant_id": azureCreds, "client_certificate": azureCreds,
			"client_certificate_password": azureCreds, "client_certificate_path": azureCreds, "client_secret": azureCreds,
			"client_secret_file_path": azureCreds, "msi_endpoint": azureCreds, "use_oidc": azureCreds, "oidc_token": azureCreds,
			"oidc_token_file_path": azureCreds, "oidc_request_url": azureCreds, "oidc_request_token": azureCreds,
			"ado_service_connection_id": azureCreds,
			"customer_provided_key":     "Cairn cannot read blobs encrypted with a customer-provided key"},
	},
	"pg": {
		env: map[string][]string{"conn_str": {"PG_CONN_STR"}, "schema_name": {"PG_SCHEMA_NAME"}, "table_name": {"PG_TABLE_NAME"}},
		// conn_str is required, but lib/pq, which Terraform uses, also
		// connects with the PG* variables alone: pgx does the same.
		used:    []string{"conn_str", "schema_name", "table_name"},
		ignored: []string{"skip_schema_creation", "skip_table_creation", "skip_index_creation", "index_name"},
	},
	"http": {
		required: []string{"address"},
		env: map[string][]string{"address": {"TF_HTTP_ADDRESS"}, "username": {"TF_HTTP_USERNAME"}, "password": {"TF_HTTP_PASSWORD"},
			"client_ca_certificate_pem": {"TF_HTTP_CLIENT_CA_CERTIFICATE_PEM"}},
		used: []string{"address", "username", "password", "skip_cert_verification", "client_ca_certificate_pem"},
		ignored: []string{"update_method", "lock_address", "unlock_address", "lock_method", "unlock_method", "retry_max",
			"retry_wait_min", "retry_wait_max"},
		unsupported: map[string]string{
			"client_certificate_pem": "Cairn does not send client certificates yet",
			"client_private_key_pem": "Cairn does not send client certificates yet"},
	},
}

// otherTypes are Terraform's backends (and OpenTofu's) that Cairn does
// not read.
var otherTypes = []string{"consul", "cos", "kubernetes", "oss", "remote", "inmem", "artifactory", "etcd", "etcdv3", "manta", "swift"}

// Other reports whether typ is one of Terraform's backends that Cairn
// does not read.
func Other(typ string) bool { return slices.Contains(otherTypes, typ) }

// Types are the backend types Cairn reads, sorted.
func Types() []string {
	var types []string
	for t := range specs {
		types = append(types, t)
	}
	sort.Strings(types)
	return types
}

// New reads the arguments of a backend of type typ: strings, bools,
// numbers, lists ([]any) and objects (map[string]any), as from JSON.
// Unset arguments take the values of Terraform's environment variables.
func New(typ string, args map[string]any, opts Options) (*Backend, error) {
	sp := specs[typ]
	if sp == nil {
		if Other(typ) {
			return nil, &ArgError{Summary: "Unsupported backend type", Detail: fmt.Sprintf(
				"Cairn does not read Terraform's %q backend; it reads %s. Write the state to a file (`terraform state pull > FILE`) and read that instead",
				typ, strings.Join(Types(), ", "))}
		}
		return nil, &ArgError{Summary: "Unknown backend type", Detail: fmt.Sprintf("there is no Terraform backend named %q; Cairn reads %s",
			typ, strings.Join(Types(), ", "))}
	}
	b := &Backend{Type: typ, args: map[string]any{}, dir: opts.Dir}
	known := map[string]bool{}
	for _, names := range [][]string{sp.used, sp.ignored} {
		for _, n := range names {
			known[n] = true
		}
	}
	for k, v := range args {
		if v == nil {
			continue
		}
		if why, ok := sp.unsupported[k]; ok {
			return nil, &ArgError{Arg: k, Summary: "Unsupported argument", Detail: fmt.Sprintf("backend %q: %s", typ, why)}
		}
		if !known[k] {
			return nil, &ArgError{Arg: k, Summary: "Unsupported argument", Detail: fmt.Sprintf(
				"backend %q has no argument %q; its arguments are %s", typ, k, strings.Join(sorted(known), ", "))}
		}
		b.args[k] = v
	}
	for k, vars := range sp.env {
		if _, set := b.args[k]; set || opts.Getenv == nil {
			continue
		}
		for _, name := range vars {
			if v := opts.Getenv(name); v != "" {
				b.args[k] = v
				break
			}
		}
	}
	for _, k := range sp.required {
		if s, err := b.str(k); err != nil {
			return nil, err
		} else if s == "" {
			detail := fmt.Sprintf("backend %q needs %s", typ, k)
			if vars := sp.env[k]; len(vars) > 0 {
				detail += ", or " + strings.Join(vars, " or ") + " in the environment"
			}
			return nil, &ArgError{Arg: k, Summary: "Missing required argument", Detail: detail}
		}
	}
	return b, b.check()
}

func sorted(set map[string]bool) []string {
	var s []string
	for k := range set {
		s = append(s, k)
	}
	sort.Strings(s)
	return s
}

// check applies the rules Terraform checks of each type's arguments.
func (b *Backend) check() error {
	switch b.Type {
	case "s3":
		key, _ := b.str("key")
		if strings.HasPrefix(key, "/") || strings.HasSuffix(key, "/") {
			return &ArgError{Arg: "key", Summary: "Invalid key value", Detail: "the key must not start or end with /"}
		}
		if p, err := b.str("workspace_key_prefix"); err != nil {
			return err
		} else if strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/") {
			return &ArgError{Arg: "workspace_key_prefix", Summary: "Invalid workspace_key_prefix value", Detail: "it must not start or end with /"}
		}
		if _, ok := b.args["force_path_style"]; ok {
			if _, ok := b.args["use_path_style"]; ok {
				return &ArgError{Arg: "force_path_style", Summary: "Conflicting arguments", Detail: "give use_path_style only (force_path_style is its old name)"}
			}
		}
	case "local":
		if _, err := b.str("path"); err != nil {
			return err
		}
	}
	for _, k := range specs[b.Type].used {
		if _, err := b.value(k); err != nil {
			return err
		}
	}
	return nil
}

// value checks the type of a used argument.
func (b *Backend) value(k string) (any, error) {
	v, ok := b.args[k]
	if !ok {
		return nil, nil
	}
	switch k {
	case "use_path_style", "force_path_style", "use_lockfile", "skip_cert_verification":
		_, err := b.flag(k)
		return v, err
	case "endpoints":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, &ArgError{Arg: k, Summary: "Invalid value", Detail: "endpoints is an object: endpoints = { s3 = \"https://…\" }"}
		}
		if s, ok := m["s3"]; ok && s != nil {
			if _, ok := s.(string); !ok {
				return nil, &ArgError{Arg: k, Summary: "Invalid value", Detail: "endpoints.s3 must be a string"}
			}
		}
		return v, nil
	}
	_, err := b.str(k)
	return v, err
}

// str returns a string argument ("" when unset); numbers and bools are
// written as text, as Terraform converts them.
func (b *Backend) str(k string) (string, error) {
	switch v := b.args[k].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), nil
	}
	return "", &ArgError{Arg: k, Summary: "Invalid value", Detail: fmt.Sprintf("%s must be a string", k)}
}

// flag returns a bool argument; "true" and "false" are read as bools, as
// Terraform reads them from -backend-config.
func (b *Backend) flag(k string) (bool, error) {
	switch v := b.args[k].(type) {
	case nil:
		return false, nil
	case bool:
		return v, nil
	case string:
		if f, err := strconv.ParseBool(v); err == nil {
			return f, nil
		}
	}
	return false, &ArgError{Arg: k, Summary: "Invalid value", Detail: fmt.Sprintf("%s must be true or false", k)}
}

// s returns a string argument checked by New.
func (b *Backend) s(k string) string {
	v, _ := b.str(k)
	return v
}

// on returns a bool argument checked by New.
func (b *Backend) on(k string) bool {
	v, _ := b.flag(k)
	return v
}

// Where names where the state of a workspace is, for messages: a file, an
// object's URL, a row or an address. It holds no credentials.
func (b *Backend) Where(workspace string) string {
	switch b.Type {
	case "local":
		return b.localPath(workspace)
	case "s3":
		return "s3://" + b.s("bucket") + "/" + b.objectKey(workspace)
	case "gcs":
		return "gs://" + b.s("bucket") + "/" + b.objectKey(workspace)
	case "azurerm":
		return "azblob://" + b.s("container_name") + "/" + b.objectKey(workspace) + " (storage account " + b.s("storage_account_name") + ")"
	case "pg":
		return fmt.Sprintf("the row named %q of table %s.%s", workspace, b.schema(), b.table())
	}
	return redactURL(b.s("address"))
}

// localPath is the file of a workspace's state in the local backend:
// path for the default workspace, as in Terraform, and
// <workspace_dir>/<workspace>/terraform.tfstate for the others.
func (b *Backend) localPath(workspace string) string {
	path := b.s("path")
	if path == "" {
		path = "terraform.tfstate"
	}
	if workspace != "" && workspace != "default" {
		dir := b.s("workspace_dir")
		if dir == "" {
			dir = "terraform.tfstate.d"
		}
		path = filepath.Join(dir, workspace, "terraform.tfstate")
	}
	if !filepath.IsAbs(path) && b.dir != "" {
		path = filepath.Join(b.dir, path)
	}
	return path
}

// objectKey is the name of a workspace's state object in an object store,
// as Terraform names it.
func (b *Backend) objectKey(workspace string) string {
	def := workspace == "" || workspace == "default"
	switch b.Type {
	case "s3":
		if def {
			return b.s("key")
		}
		prefix := "env:"
		if _, ok := b.args["workspace_key_prefix"]; ok {
			prefix = b.s("workspace_key_prefix")
		}
		if prefix == "" {
			return workspace + "/" + b.s("key")
		}
		return prefix + "/" + workspace + "/" + b.s("key")
	case "gcs":
		if workspace == "" {
			workspace = "default"
		}
		if p := strings.Trim(b.s("prefix"), "/"); p != "" {
			return p + "/" + workspace + ".tfstate"
		}
		return workspace + ".tfstate"
	case "azurerm":
		if def {
			return b.s("key")
		}
		return b.s("key") + "env:" + workspace
	}
	return ""
}

// schema and table are the pg backend's.
func (b *Backend) schema() string {
	if s := b.s("schema_name"); s != "" {
		return s
	}
	return "terraform_remote_state"
}

func (b *Backend) table() string {
	if s := b.s("table_name"); s != "" {
		return s
	}
	return "states"
}

// Holds reports whether Cairn can keep its stacks beside the backend's
// state (see CairnURL): all but http.
func (b *Backend) Holds() bool { return b.Type != "http" }

// Workspaces reports whether the backend keeps workspaces other than
// default; the http backend does not.
func (b *Backend) Workspaces() bool { return b.Type != "http" }
