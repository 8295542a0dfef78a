package main

import (
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/cairn-iac/cairn/engine/deploy"
	"github.com/cairn-iac/cairn/engine/provider"
	"github.com/cairn-iac/cairn/engine/resource"
	"github.com/cairn-iac/cairn/engine/secrets"
	"github.com/cairn-iac/cairn/eval"
	"github.com/cairn-iac/cairn/lang/yaml"
)

// providerHost resolves packages to providers: the project's pinned plugins,
// then the built-in providers, then plugins found on disk.
func (s *session) providerHost(sm secrets.Manager) (provider.Host, error) {
	return provider.Factories{}, nil
}

// program loads the project's program for its runtime.
func (s *session) program(host provider.Host, config map[string]resource.Value) (deploy.Program, error) {
	schemas := eval.ProviderSchemas(host)
	switch s.project.Runtime {
	case "yaml":
		prog, diags := yaml.Load(s.project.Dir, yaml.Options{Schemas: schemas})
		if diags.HasErrors() {
			return nil, &eval.DiagnosticsError{Diags: diags, Files: filesOf(prog)}
		}
		return prog, nil
	}
	return nil, fmt.Errorf("runtime %q is not supported yet", s.project.Runtime)
}

func filesOf(p *eval.Program) map[string]*hcl.File {
	if p == nil {
		return nil
	}
	return p.Files
}

// hclDiagnosticWriter renders program diagnostics with their source lines.
func hclDiagnosticWriter(w io.Writer, de *eval.DiagnosticsError, color bool) hcl.DiagnosticWriter {
	return hcl.NewDiagnosticTextWriter(w, de.Files, 100, color)
}

