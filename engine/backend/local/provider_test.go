package local_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
)

// effects is a provider with side effects on disk: Create writes a file
// named after the resource, holding its ID, and fails if the file exists
// (a resource created twice); Read finds the file; Delete removes it.
// Before creating, it notes the resource in started.log.
type effects struct {
	provider.Unimplemented
	dir string
	// created, if set, is called after a create's side effect.
	created func(name string)
	// secret adds a secret output to every resource.
	secret bool
}

const thingType = "effects:index:Thing"

func (p *effects) Pkg() string { return "effects" }

func (p *effects) GetPluginInfo(context.Context) (provider.PluginInfo, error) {
	return provider.PluginInfo{Version: "1.0.0"}, nil
}

func (p *effects) Check(_ context.Context, r provider.CheckRequest) (provider.CheckResponse, error) {
	return provider.CheckResponse{Inputs: r.News}, nil
}

func (p *effects) Diff(context.Context, provider.DiffRequest) (provider.DiffResponse, error) {
	return provider.DiffResponse{Changes: provider.DiffUnknown}, nil
}

func (p *effects) Create(_ context.Context, r provider.CreateRequest) (provider.CreateResponse, error) {
	name := r.URN.Name()
	if err := appendLine(filepath.Join(p.dir, "started.log"), name); err != nil {
		return provider.CreateResponse{}, err
	}
	// The resource comes into existence whole: its file is written aside
	// and linked into place, which fails if it exists.
	id := name + "-id"
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path+".tmp", []byte(id), 0o644); err != nil {
		return provider.CreateResponse{}, err
	}
	defer os.Remove(path + ".tmp")
	if err := os.Link(path+".tmp", path); errors.Is(err, fs.ErrExist) {
		appendLine(filepath.Join(p.dir, "duplicates.log"), name)
		return provider.CreateResponse{}, fmt.Errorf("%s was created twice", name)
	} else if err != nil {
		return provider.CreateResponse{}, err
	}
	if p.created != nil {
		p.created(name)
	}
	outputs := r.Inputs.Copy()
	if p.secret {
		outputs["token"] = resource.MakeSecret(resource.String("tok-SECRET-" + name))
	}
	return provider.CreateResponse{ID: resource.ID(id), Outputs: outputs}, nil
}

func (p *effects) Read(_ context.Context, r provider.ReadRequest) (provider.ReadResponse, error) {
	data, err := os.ReadFile(filepath.Join(p.dir, r.URN.Name()))
	if errors.Is(err, fs.ErrNotExist) {
		return provider.ReadResponse{}, nil
	}
	if err != nil {
		return provider.ReadResponse{}, err
	}
	return provider.ReadResponse{ID: resource.ID(data), Inputs: r.Inputs, Outputs: r.Outputs}, nil
}

func (p *effects) Update(_ context.Context, r provider.UpdateRequest) (provider.UpdateResponse, error) {
	return provider.UpdateResponse{Outputs: r.News}, nil
}

func (p *effects) Delete(_ context.Context, r provider.DeleteRequest) error {
	return os.Remove(filepath.Join(p.dir, r.URN.Name()))
}

func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (p *effects) host() provider.Host { return hostOf(p) }

// hostOf serves one provider instance as package effects.
func hostOf(p provider.Provider) provider.Host {
	return provider.Factories{{Pkg: "effects", Version: "1.0.0", New: func(context.Context) (provider.Provider, error) { return p, nil }}}
}

// world returns the resources that exist, by name, with their IDs.
func (p *effects) world(t testing.TB) map[string]resource.ID {
	t.Helper()
	entries, err := os.ReadDir(p.dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]resource.ID{}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".log") || strings.HasSuffix(e.Name(), ".tmp") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(p.dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = resource.ID(data)
	}
	return out
}
