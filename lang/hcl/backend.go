package hcl

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/cairn-iac/cairn/engine/tfbackend"
	"github.com/cairn-iac/cairn/engine/workspace"
	"github.com/cairn-iac/cairn/eval"
)

// BackendBlock is the backend block of a Terraform configuration, read
// (see Backend).
type BackendBlock struct {
	// Backend is nil for one of Terraform's backends that Cairn does not
	// read (tfbackend.Other).
	*tfbackend.Backend
	// Type is the block's label.
	Type  string
	block *hcl.Block
	files map[string]*hcl.File
}

// Backend reads the backend block of the Terraform configuration in dir
// (`terraform { backend "s3" { … } }`; an override file's replaces the
// others'), completed as Terraform completes it: with the partial
// configuration `terraform init -backend-config=…` recorded in
// .terraform/terraform.tfstate (TF_DATA_DIR), for the arguments the block
// leaves out, and with Terraform's environment variables (getenv). It
// returns nil when the folder has no Terraform files or no backend block,
// and a BackendBlock without Backend for one of Terraform's backends that
// Cairn does not read. An error is an *eval.DiagnosticsError naming the block or the argument.
func Backend(dir string, getenv func(string) string) (*BackendBlock, error) {
	parser := hclparse.NewParser()
	fail := func(d ...*hcl.Diagnostic) error { return &eval.DiagnosticsError{Diags: d, Files: parser.Files()} }
	var blk, primary *hcl.Block
	for _, path := range workspace.TerraformFiles(dir) {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		name := filepath.Base(path)
		parse := parser.ParseHCL
		if strings.HasSuffix(name, ".json") {
			parse = parser.ParseJSON
		}
		f, d := parse(src, name)
		if d.HasErrors() {
			return nil, fail(d...)
		}
		for _, b := range backendBlocks(f) {
			if !isOverride(path) {
				if primary != nil {
					return nil, fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate backend configuration",
						Detail:  fmt.Sprintf("A configuration has one backend block; another is at %s.", primary.DefRange),
						Subject: b.DefRange.Ptr()})
				}
				primary = b
			}
			blk = b
		}
	}
	if blk == nil {
		return nil, nil
	}
	typ := blk.Labels[0]
	if tfbackend.Other(typ) {
		return &BackendBlock{Type: typ, block: blk, files: parser.Files()}, nil
	}
	attrs, d := blk.Body.JustAttributes()
	if d.HasErrors() {
		return nil, fail(d...)
	}
	args := map[string]any{}
	for name, a := range attrs {
		v, d := a.Expr.Value(nil)
		if d.HasErrors() {
			return nil, fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Variables not allowed",
				Detail:  "A backend's arguments are read before anything else, so they may not refer to variables, locals or functions; write the value, or give it with `terraform init -backend-config`.",
				Subject: a.Expr.Range().Ptr()})
		}
		raw, err := ctyjson.Marshal(v, v.Type())
		var x any
		if err == nil {
			err = json.Unmarshal(raw, &x)
		}
		if err != nil {
			return nil, fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value", Detail: err.Error(), Subject: a.Expr.Range().Ptr()})
		}
		args[name] = x
	}
	partial, err := initConfig(dir, getenv, typ)
	if err != nil {
		return nil, fail(&hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid backend state", Detail: err.Error(), Subject: blk.DefRange.Ptr()})
	}
	for k, v := range partial {
		if _, ok := args[k]; !ok && v != nil {
			args[k] = v
		}
	}
	bb := &BackendBlock{Type: typ, block: blk, files: parser.Files()}
	if bb.Backend, err = tfbackend.New(typ, args, tfbackend.Options{Dir: dir, Getenv: getenv}); err != nil {
		return nil, bb.Error(err)
	}
	return bb, nil
}

// Error places an error of the backend's arguments (from tfbackend) in
// the source: at the argument when the block writes it, else at the
// block.
func (b *BackendBlock) Error(err error) error {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid backend configuration", Detail: err.Error(), Subject: b.block.DefRange.Ptr()}
	var ae *tfbackend.ArgError
	if errors.As(err, &ae) {
		d.Summary, d.Detail = ae.Summary, ae.Detail
		if ae.Arg != "" {
			d.Detail = fmt.Sprintf("%s (argument %s of backend %q).", strings.TrimSuffix(ae.Detail, "."), ae.Arg, b.block.Labels[0])
			if attrs, diags := b.block.Body.JustAttributes(); !diags.HasErrors() && attrs[ae.Arg] != nil {
				d.Subject = attrs[ae.Arg].NameRange.Ptr()
			}
		} else {
			d.Subject = b.block.LabelRanges[0].Ptr()
		}
	}
	return &eval.DiagnosticsError{Diags: hcl.Diagnostics{d}, Files: b.files}
}

// backendBlocks are the backend and cloud blocks of a file's terraform
// blocks.
func backendBlocks(f *hcl.File) []*hcl.Block {
	content, _, _ := f.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "terraform"}}})
	var out []*hcl.Block
	for _, tb := range content.Blocks {
		c, _, _ := tb.Body.PartialContent(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "backend", LabelNames: []string{"type"}}, {Type: "cloud"}}})
		out = append(out, c.Blocks...)
	}
	return out
}

// initConfig is the backend configuration `terraform init` recorded in
// .terraform/terraform.tfstate (or TF_DATA_DIR's), block and
// -backend-config merged, when it is of type typ; nil when there is none.
func initConfig(dir string, getenv func(string) string, typ string) (map[string]any, error) {
	data := ".terraform"
	if getenv != nil && getenv("TF_DATA_DIR") != "" {
		data = getenv("TF_DATA_DIR")
	}
	if !filepath.IsAbs(data) {
		data = filepath.Join(dir, data)
	}
	path := filepath.Join(data, "terraform.tfstate")
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	var st struct {
		Backend *struct {
			Type   string         `json:"type"`
			Config map[string]any `json:"config"`
		} `json:"backend"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("%s, where `terraform init` records the backend's configuration, is not JSON: %w", path, err)
	}
	if st.Backend == nil || st.Backend.Type != typ {
		return nil, nil
	}
	return st.Backend.Config, nil
}
