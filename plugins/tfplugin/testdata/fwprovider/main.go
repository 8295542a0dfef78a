// Command terraform-provider-cairnfw is a Terraform provider written with
// terraform-plugin-framework (protocol 6) for Cairn's tests. It keeps each
// cairnfw_file (and cairnfw_note, its older name, whose state moves to
// cairnfw_file) as a JSON file in the folder its dir attribute names.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func main() {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return &fwProvider{} },
		providerserver.ServeOpts{Address: "registry.opentofu.org/cairn/cairnfw", ProtocolVersion: 6})
	if err != nil {
		os.Exit(1)
	}
}

type fwProvider struct{}

type providerModel struct {
	Dir types.String `tfsdk:"dir"`
}

func (p *fwProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "cairnfw"
	resp.Version = "1.0.0"
}

func (p *fwProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"dir": pschema.StringAttribute{Required: true, Description: "The folder files are kept in."},
	}}
}

func (p *fwProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if m.Dir.IsUnknown() {
		return
	}
	resp.ResourceData, resp.DataSourceData = m.Dir.ValueString(), m.Dir.ValueString()
}

func (p *fwProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource { return &fileResource{typ: "_file"} },
		func() resource.Resource { return &fileResource{typ: "_note"} },
	}
}

func (p *fwProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{func() datasource.DataSource { return &fileData{} }}
}

func (p *fwProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{func() function.Function { return shout{} }}
}

// stored is what a file holds.
type stored struct {
	Content string            `json:"content"`
	Secret  string            `json:"secret,omitempty"`
	Tags    map[string]string `json:"tags,omitempty"`
}

type fileModel struct {
	ID      types.String `tfsdk:"id"`
	Name    types.String `tfsdk:"name"`
	Content types.String `tfsdk:"content"`
	Secret  types.String `tfsdk:"secret"`
	Size    types.Int64  `tfsdk:"size"`
	Tag     []tagModel   `tfsdk:"tag"`
}

type tagModel struct {
	Key   types.String `tfsdk:"key"`
	Value types.String `tfsdk:"value"`
}

// fileResource serves cairnfw_file and cairnfw_note, its older name,
// whose state a moved block moves to cairnfw_file.
type fileResource struct{ dir, typ string }

func (r *fileResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.typ
}

// MoveState takes over the state of a cairnfw_note (of this provider,
// whatever its registry) as a cairnfw_file: the same file.
func (r *fileResource) MoveState(context.Context) []resource.StateMover {
	if r.typ != "_file" {
		return nil
	}
	return []resource.StateMover{{StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
		if req.SourceTypeName != "cairnfw_note" || !strings.HasSuffix(req.SourceProviderAddress, "/cairn/cairnfw") {
			return
		}
		var m fileModel
		resp.Diagnostics.Append(req.SourceState.Get(ctx, &m)...)
		resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
	}, SourceSchema: fileSchema()}}
}

func (r *fileResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = *fileSchema()
}

func fileSchema() *rschema.Schema {
	return &rschema.Schema{
		Version: 1,
		Attributes: map[string]rschema.Attribute{
			"id":      rschema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"name":    rschema.StringAttribute{Required: true, PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()}},
			"content": rschema.StringAttribute{Optional: true, Description: "What the file holds."},
			"secret":  rschema.StringAttribute{Optional: true, Sensitive: true},
			"size":    rschema.Int64Attribute{Computed: true},
		},
		Blocks: map[string]rschema.Block{
			"tag": rschema.ListNestedBlock{NestedObject: rschema.NestedBlockObject{Attributes: map[string]rschema.Attribute{
				"key":   rschema.StringAttribute{Required: true},
				"value": rschema.StringAttribute{Optional: true},
			}}},
		},
	}
}

// UpgradeState upgrades states of schema version 0, where content was
// called text.
func (r *fileResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	v0 := &rschema.Schema{Attributes: map[string]rschema.Attribute{
		"id":   rschema.StringAttribute{Computed: true},
		"name": rschema.StringAttribute{Required: true},
		"text": rschema.StringAttribute{Optional: true},
	}}
	return map[int64]resource.StateUpgrader{0: {PriorSchema: v0,
		StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			var old struct {
				ID   types.String `tfsdk:"id"`
				Name types.String `tfsdk:"name"`
				Text types.String `tfsdk:"text"`
			}
			resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
			m := fileModel{ID: old.ID, Name: old.Name, Content: old.Text, Secret: types.StringNull(),
				Size: types.Int64Value(int64(len(old.Text.ValueString())))}
			resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		}}}
}

func (r *fileResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if dir, ok := req.ProviderData.(string); ok {
		r.dir = dir
	}
}

func (r *fileResource) path(name string) string { return filepath.Join(r.dir, name+".json") }

func (r *fileResource) write(m *fileModel) error {
	s := stored{Content: m.Content.ValueString(), Secret: m.Secret.ValueString()}
	for _, t := range m.Tag {
		if s.Tags == nil {
			s.Tags = map[string]string{}
		}
		s.Tags[t.Key.ValueString()] = t.Value.ValueString()
	}
	data, _ := json.Marshal(s)
	m.ID = m.Name
	m.Size = types.Int64Value(int64(len(s.Content)))
	return os.WriteFile(r.path(m.Name.ValueString()), data, 0o644)
}

func (r *fileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m fileModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.write(&m); err != nil {
		resp.Diagnostics.AddError("Cannot write the file", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *fileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m fileModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data, err := os.ReadFile(r.path(m.Name.ValueString()))
	if errors.Is(err, os.ErrNotExist) {
		resp.State.RemoveResource(ctx)
		return
	}
	var s stored
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the file", err.Error())
		return
	}
	m.ID = m.Name
	if s.Content != "" || !m.Content.IsNull() {
		m.Content = types.StringValue(s.Content)
	}
	if s.Secret != "" || !m.Secret.IsNull() {
		m.Secret = types.StringValue(s.Secret)
	}
	m.Size = types.Int64Value(int64(len(s.Content)))
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *fileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m fileModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := r.write(&m); err != nil {
		resp.Diagnostics.AddError("Cannot write the file", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (r *fileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var m fileModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	if err := os.Remove(r.path(m.Name.ValueString())); err != nil && !errors.Is(err, os.ErrNotExist) {
		resp.Diagnostics.AddError("Cannot delete the file", err.Error())
	}
}

func (r *fileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
}

type fileData struct{ dir string }

type fileDataModel struct {
	Name    types.String `tfsdk:"name"`
	Content types.String `tfsdk:"content"`
}

func (d *fileData) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_file"
}

func (d *fileData) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dschema.Schema{Attributes: map[string]dschema.Attribute{
		"name":    dschema.StringAttribute{Required: true},
		"content": dschema.StringAttribute{Computed: true},
	}}
}

func (d *fileData) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if dir, ok := req.ProviderData.(string); ok {
		d.dir = dir
	}
}

func (d *fileData) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m fileDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	data, err := os.ReadFile(filepath.Join(d.dir, m.Name.ValueString()+".json"))
	var s stored
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot read the file", err.Error())
		return
	}
	m.Content = types.StringValue(s.Content)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// shout is the function shout(text): text in capitals, with "!".
type shout struct{}

func (shout) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "shout"
}

func (shout) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary:    "Shouts a text.",
		Parameters: []function.Parameter{function.StringParameter{Name: "text"}},
		Return:     function.StringReturn{},
	}
}

func (shout) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var text string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &text))
	if resp.Error != nil {
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, strings.ToUpper(text)+"!"))
}
