package tfinstall

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/cairn-iac/cairn/plugins/tfaddr"
)

// moduleRegistry finds modules in a module registry, by the module
// registry protocol:
//
//	GET https://<host>/.well-known/terraform.json   {"modules.v1":"/v1/modules/"}
//	GET <modules.v1><namespace>/<name>/<system>/versions
//	GET <modules.v1><namespace>/<name>/<system>/<version>/download
//
// The download answer gives where the module's package is: in its
// X-Terraform-Get header (204) or as the location of a JSON document
// (200), a package address that may be a URL relative to the download's.
type moduleRegistry struct {
	client  *client
	retries int
	apis    map[tfaddr.Host]*url.URL // modules.v1 by host, once discovered
}

// api returns the modules.v1 base URL of host.
func (r *moduleRegistry) api(ctx context.Context, host tfaddr.Host) (*url.URL, error) {
	if api := r.apis[host]; api != nil {
		return api, nil
	}
	api, err := r.client.discover(ctx, host, "modules.v1")
	if err == nil {
		r.apis[host] = api
	}
	return api, err
}

// version returns the newest version of m that meets cs.
func (r *moduleRegistry) version(ctx context.Context, m *tfaddr.Module, cs tfaddr.ModuleConstraints) (tfaddr.ModuleVersion, error) {
	api, err := r.api(ctx, m.Package.Host)
	if err != nil {
		return nil, err
	}
	u := api.JoinPath(m.Package.Namespace, m.Package.Name, m.Package.TargetSystem, "versions")
	var doc struct {
		Modules []struct {
			Versions []struct {
				Version string `json:"version"`
			} `json:"versions"`
		} `json:"modules"`
	}
	if _, err := r.client.getJSON(ctx, request{url: u, auth: m.Package.Host, retries: r.retries}, &doc); err != nil {
		if errors.Is(err, errNotFound) {
			return nil, fmt.Errorf("%s: the registry has no module %s", u, m)
		}
		return nil, fmt.Errorf("%s: %v", u, err)
	}
	var all []tfaddr.ModuleVersion
	for _, mod := range doc.Modules {
		for _, entry := range mod.Versions {
			if v, err := tfaddr.ParseModuleVersion(entry.Version); err == nil {
				all = append(all, v)
			}
		}
	}
	slices.SortFunc(all, func(a, b tfaddr.ModuleVersion) int { return b.Compare(a) })
	for _, v := range all {
		if cs.Allows(v) {
			return v, nil
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s: the registry lists no versions of %s", u, m)
	}
	return nil, fmt.Errorf("%s: no version of %s matches %s; the registry has %s", u, m, cs, versionList(all))
}

// location returns the address of the package of m at version v, with
// a URL relative to the download's resolved.
func (r *moduleRegistry) location(ctx context.Context, m *tfaddr.Module, v tfaddr.ModuleVersion) (string, error) {
	api, err := r.api(ctx, m.Package.Host)
	if err != nil {
		return "", err
	}
	u := api.JoinPath(m.Package.Namespace, m.Package.Name, m.Package.TargetSystem, v.String(), "download")
	resp, err := r.client.get(ctx, request{url: u, auth: m.Package.Host, meta: true, retries: r.retries})
	if err != nil {
		return "", fmt.Errorf("%s: %v", u, err)
	}
	defer resp.Body.Close()
	loc := resp.Header.Get("X-Terraform-Get")
	if loc == "" {
		var doc struct {
			Location string `json:"location"`
		}
		if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&doc); err != nil || doc.Location == "" {
			return "", fmt.Errorf("%s: the registry gives no location for %s %s (no X-Terraform-Get header nor JSON location)", u, m, v)
		}
		loc = doc.Location
	}
	return relativeLocation(resp.Request.URL, loc)
}

// relativeLocation resolves a package address that is a URL relative to
// base (/…, ./…, ../…), keeping any other as it is.
func relativeLocation(base *url.URL, loc string) (string, error) {
	if !strings.HasPrefix(loc, "/") && !strings.HasPrefix(loc, "./") && !strings.HasPrefix(loc, "../") {
		return loc, nil
	}
	u, err := base.Parse(loc)
	if err != nil {
		return "", fmt.Errorf("the package location %q is not a URL: %v", loc, err)
	}
	return u.String(), nil
}
