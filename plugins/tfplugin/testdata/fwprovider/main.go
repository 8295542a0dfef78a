// Command terraform-provider-cairnfw is a Terraform provider written with
// terraform-plugin-framework (protocol 6) for Cairn's tests. It keeps each
// cairnfw_file (and cairnfw_note, its older name, whose state moves to
// cairnfw_file) as a JSON file in the folder its dir attribute names. Its
// ephemeral resource cairnfw_token logs when it is opened, renewed and
// closed in ephemeral.log there, and so does the provider's configuration
// when given a token.
//
// A cairnfw_file misbehaves on demand, for tests of the checks Terraform
// makes of providers, by its content: "replan" is planned as "replanned"
// (an invalid plan); "drift" is written but returned as "drifted" and
// "unknown" returns its size unknown (inconsistent results after apply);
// "partial" is written, then fails with the state of the written file.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	eschema "github.com/hashicorp/terraform-plugin-framework/ephemeral/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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
	Dir   types.String `tfsdk:"dir"`
	Token types.String `tfsdk:"token"`
}

func (p *fwProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "cairnfw"
	resp.Version = "1.0.0"
}

func (p *fwProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{Attributes: map[string]pschema.Attribute{
		"dir":   pschema.StringAttribute{Required: true, Description: "The folder files are kept in."},
		"token": pschema.StringAttribute{Optional: true, Sensitive: true, Description: "A token, logged in ephemeral.log when set."},
	}}
}

func (p *fwProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if m.Dir.IsUnknown() {
		return
	}
	dir := m.Dir.ValueString()
	if !m.Token.IsNull() && !m.Token.IsUnknown() {
		if err := logLine(dir, "configure", m.Token.ValueString()); err != nil {
			resp.Diagnostics.AddError("Cannot log", err.Error())
		}
	}
	resp.ResourceData, resp.DataSourceData, resp.EphemeralResourceData = dir, dir, dir
}

// logLine appends a line of words to dir/ephemeral.log.
func logLine(dir string, words ...string) error {
	f, err := os.OpenFile(filepath.Join(dir, "ephemeral.log"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(strings.Join(words, " ") + "\n")
	return errors.Join(err, f.Close())
}

func (p *fwProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{func() ephemeral.EphemeralResource { return &token{} }}
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
	Content string `json:"content"`
	Secret  string `json:"secret,omitempty"`
	// Password is the write-only attribute password_wo.
	Password string            `json:"password,omitempty"`
	Tags     map[string]string `json:"tags,omitempty"`
}

type fileModel struct {
	ID      types.String `tfsdk:"id"`
	Name    types.String `tfsdk:"name"`
	Content types.String `tfsdk:"content"`
	Secret  types.String `tfsdk:"secret"`
	Size    types.Int64  `tfsdk:"size"`
	Tag     []tagModel   `tfsdk:"tag"`
	// PasswordWO is always null here: the value is in the configuration.
	PasswordWO types.String `tfsdk:"password_wo"`
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
			"password_wo": rschema.StringAttribute{Optional: true, WriteOnly: true, Sensitive: true,
				Description: "A password written into the file and never kept in the state."},
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

// write writes the file of m, with the write-only password of config.
func (r *fileResource) write(ctx context.Context, config tfsdk.Config, m *fileModel) error {
	var password types.String
	if d := config.GetAttribute(ctx, path.Root("password_wo"), &password); d.HasError() {
		return errors.New("reading password_wo")
	}
	s := stored{Content: m.Content.ValueString(), Secret: m.Secret.ValueString(), Password: password.ValueString()}
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
	resp.Diagnostics.Append(r.apply(ctx, req.Plan, req.Config, &resp.State)...)
}

// apply writes the file planned and sets the state, misbehaving as its
// content asks (see the package's comment).
func (r *fileResource) apply(ctx context.Context, plan tfsdk.Plan, config tfsdk.Config, st *tfsdk.State) diag.Diagnostics {
	var m fileModel
	diags := plan.Get(ctx, &m)
	if diags.HasError() {
		return diags
	}
	if err := r.write(ctx, config, &m); err != nil {
		diags.AddError("Cannot write the file", err.Error())
		return diags
	}
	switch m.Content.ValueString() {
	case "drift":
		m.Content = types.StringValue("drifted")
	case "unknown":
		m.Size = types.Int64Unknown()
	case "partial":
		diags.AddError("Cannot finish the file", "the file "+m.Name.ValueString()+" was written but cannot be finished")
	}
	return append(diags, st.Set(ctx, &m)...)
}

// ModifyPlan plans the content "replan" as "replanned".
func (r *fileResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var content types.String
	if req.Plan.Raw.IsNull() {
		return
	}
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("content"), &content)...)
	if content.ValueString() == "replan" {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("content"), "replanned")...)
	}
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
	resp.Diagnostics.Append(r.apply(ctx, req.Plan, req.Config, &resp.State)...)
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

// token is the ephemeral resource cairnfw_token: its value is
// "token-" and its name; it logs "open NAME", "renew NAME" (when renew
// asks for one renewal, due at once) and "close NAME".
type token struct{ dir string }

type tokenModel struct {
	Name  types.String `tfsdk:"name"`
	Renew types.Bool   `tfsdk:"renew"`
	Value types.String `tfsdk:"value"`
}

func (e *token) Metadata(_ context.Context, req ephemeral.MetadataRequest, resp *ephemeral.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_token"
}

func (e *token) Schema(_ context.Context, _ ephemeral.SchemaRequest, resp *ephemeral.SchemaResponse) {
	resp.Schema = eschema.Schema{Attributes: map[string]eschema.Attribute{
		"name":  eschema.StringAttribute{Required: true},
		"renew": eschema.BoolAttribute{Optional: true},
		"value": eschema.StringAttribute{Computed: true, Sensitive: true},
	}}
}

func (e *token) Configure(_ context.Context, req ephemeral.ConfigureRequest, _ *ephemeral.ConfigureResponse) {
	if dir, ok := req.ProviderData.(string); ok {
		e.dir = dir
	}
}

func (e *token) Open(ctx context.Context, req ephemeral.OpenRequest, resp *ephemeral.OpenResponse) {
	var m tokenModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := m.Name.ValueString()
	if err := logLine(e.dir, "open", name); err != nil {
		resp.Diagnostics.AddError("Cannot log", err.Error())
		return
	}
	m.Value = types.StringValue("token-" + name)
	resp.Diagnostics.Append(resp.Result.Set(ctx, &m)...)
	key, _ := json.Marshal(name)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, "name", key)...)
	if m.Renew.ValueBool() {
		resp.RenewAt = time.Now()
	}
}

func (e *token) privateName(ctx context.Context, private interface {
	GetKey(context.Context, string) ([]byte, diag.Diagnostics)
}) (string, diag.Diagnostics) {
	data, diags := private.GetKey(ctx, "name")
	var name string
	if err := json.Unmarshal(data, &name); err != nil {
		diags.AddError("No name in the private data", err.Error())
	}
	return name, diags
}

func (e *token) Renew(ctx context.Context, req ephemeral.RenewRequest, resp *ephemeral.RenewResponse) {
	name, diags := e.privateName(ctx, req.Private)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	if err := logLine(e.dir, "renew", name); err != nil {
		resp.Diagnostics.AddError("Cannot log", err.Error())
	}
}

func (e *token) Close(ctx context.Context, req ephemeral.CloseRequest, resp *ephemeral.CloseResponse) {
	name, diags := e.privateName(ctx, req.Private)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	if err := logLine(e.dir, "close", name); err != nil {
		resp.Diagnostics.AddError("Cannot log", err.Error())
	}
}
