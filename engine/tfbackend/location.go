package tfbackend

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Suffix is added to the name of Terraform's state (its key, prefix or
// file) to name the place where Cairn keeps its own stacks beside it.
const Suffix = ".cairn"

// CairnURL is the backend URL of the place beside Terraform's state where
// Cairn keeps its own stacks, in Pulumi's DIY layout: the key (s3,
// azurerm), prefix (gcs) or file (local) of the default workspace's
// state followed by Suffix, in the same bucket, container or folder; for
// pg, Cairn's own tables in the same database. Cairn never writes
// Terraform's state objects. The URL holds no credentials but a pg
// connection string's: Cairn's backends take them from each cloud's
// standard chain.
func (b *Backend) CairnURL() (string, error) {
	inBlock := func(arg, where string) error {
		return &ArgError{Arg: arg, Summary: "Credentials in the backend configuration", Detail: fmt.Sprintf(
			"Cairn keeps its stacks beside Terraform's state with credentials from %s, not from the backend's arguments; "+
				"move %s there, or set CAIRN_BACKEND_URL to keep Cairn's stacks elsewhere", where, arg)}
	}
	switch b.Type {
	case "local":
		path, err := filepath.Abs(b.localPath("default"))
		if err != nil {
			return "", err
		}
		return "file://" + path + Suffix, nil
	case "s3":
		for _, k := range []string{"access_key", "secret_key", "token"} {
			if b.s(k) != "" {
				return "", inBlock(k, "AWS's standard chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, profile, ~/.aws, instance roles)")
			}
		}
		q := url.Values{}
		q.Set("region", b.s("region"))
		if e := b.s3Endpoint(); e != "" {
			q.Set("endpoint", e)
		}
		if b.on("use_path_style") || b.on("force_path_style") {
			q.Set("use_path_style", "true")
		}
		if p := b.s("profile"); p != "" {
			q.Set("profile", p)
		}
		return (&url.URL{Scheme: "s3", Host: b.s("bucket"), Path: "/" + b.s("key") + Suffix, RawQuery: q.Encode()}).String(), nil
	case "gcs":
		for _, k := range []string{"credentials", "access_token"} {
			if b.s(k) != "" {
				return "", inBlock(k, "Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login)")
			}
		}
		if b.s("storage_custom_endpoint") != "" {
			return "", &ArgError{Arg: "storage_custom_endpoint", Summary: "Custom endpoint", Detail: "Cairn keeps its stacks on Google Cloud Storage " +
				"at Google's endpoint, or an emulator's named by STORAGE_EMULATOR_HOST; set CAIRN_BACKEND_URL to keep them elsewhere"}
		}
		return (&url.URL{Scheme: "gs", Host: b.s("bucket"), Path: "/" + strings.Trim(b.s("prefix"), "/") + Suffix}).String(), nil
	case "azurerm":
		for _, k := range []string{"access_key", "sas_token"} {
			if b.s(k) != "" {
				return "", inBlock(k, "AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN or Azure's default chain")
			}
		}
		q := url.Values{"storage_account": {b.s("storage_account_name")}}
		svc, err := b.azureService()
		if err != nil {
			return "", err
		}
		if svc.emulator {
			q.Set("localemu", "true")
		}
		if svc.domain != "" {
			q.Set("domain", svc.domain)
		}
		if svc.protocol != "https" {
			q.Set("protocol", svc.protocol)
		}
		return (&url.URL{Scheme: "azblob", Host: b.s("container_name"), Path: "/" + b.s("key") + Suffix, RawQuery: q.Encode()}).String(), nil
	case "pg":
		conn := b.s("conn_str")
		if !strings.HasPrefix(conn, "postgres://") && !strings.HasPrefix(conn, "postgresql://") {
			return "", &ArgError{Arg: "conn_str", Summary: "Connection string not a URL", Detail: "Cairn keeps its stacks in the same database, " +
				"and needs conn_str (or PG_CONN_STR) as a postgres://user:password@host:port/database URL to find it; " +
				"write it so, or set CAIRN_BACKEND_URL"}
		}
		return conn, nil
	}
	return "", &ArgError{Summary: "Backend cannot hold Cairn's stacks", Detail: fmt.Sprintf(
		"Cairn keeps its stacks beside Terraform's state in backends %s; set CAIRN_BACKEND_URL to say where to keep them",
		"local, s3, gcs, azurerm and pg")}
}

// s3Endpoint is the S3 endpoint, if another than AWS's: endpoints.s3,
// else endpoint (its older name).
func (b *Backend) s3Endpoint() string {
	if m, ok := b.args["endpoints"].(map[string]any); ok {
		if s, ok := m["s3"].(string); ok && s != "" {
			return s
		}
	}
	return b.s("endpoint")
}

// azureService is where the Blob service of an azurerm backend is.
type azureService struct {
	protocol, domain string
	// emulator is set for an endpoint that names the account in its path,
	// as Azurite's do: http://127.0.0.1:10000/devstoreaccount1.
	emulator bool
}

// azureDomains are the Blob service domains of Azure's environments, by
// the names Terraform's environment argument takes.
var azureDomains = map[string]string{
	"public":       "blob.core.windows.net",
	"china":        "blob.core.chinacloudapi.cn",
	"usgovernment": "blob.core.usgovcloudapi.net",
}

// azureService reads endpoint (which Terraform no longer uses, and Cairn
// reads as the Blob service's address, for emulators) and environment.
func (b *Backend) azureService() (azureService, error) {
	svc := azureService{protocol: "https"}
	if e := b.s("endpoint"); e != "" {
		u, err := url.Parse(e)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return svc, &ArgError{Arg: "endpoint", Summary: "Invalid endpoint", Detail: "endpoint is the Blob service's address, as http(s)://host[:port][/account]"}
		}
		svc.protocol, svc.domain = u.Scheme, u.Host
		svc.emulator = strings.Trim(u.Path, "/") != ""
		return svc, nil
	}
	if env := strings.ToLower(b.s("environment")); env != "" {
		d, ok := azureDomains[env]
		if !ok {
			return svc, &ArgError{Arg: "environment", Summary: "Unknown Azure environment", Detail: "environment is public, china or usgovernment"}
		}
		svc.domain = d
	}
	return svc, nil
}
