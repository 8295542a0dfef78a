// Command terraform-provider-cairnsdk is a Terraform provider written with
// terraform-plugin-sdk/v2 (protocol 5) for Cairn's tests. It keeps each
// cairnsdk_item as a file in the folder its dir setting names, and its
// write-only password_wo, when set, in a file of the same name ending in
// .wo. An item whose value is "fail" logs an error and is refused. One
// whose value is "drift" is written but returned as "drifted" (an
// inconsistent result, which Terraform tolerates of this SDK); one whose
// value is "partial" is written, then fails with the state of the item;
// one whose value is "vanish" is written, but no object is returned.
package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/hashicorp/go-cty/cty"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-sdk/v2/diag"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/plugin"
)

func main() {
	plugin.Serve(&plugin.ServeOpts{ProviderFunc: func() *schema.Provider {
		return &schema.Provider{
			Schema: map[string]*schema.Schema{"dir": {Type: schema.TypeString, Required: true}},
			ConfigureContextFunc: func(_ context.Context, d *schema.ResourceData) (any, diag.Diagnostics) {
				return d.Get("dir").(string), nil
			},
			ResourcesMap:   map[string]*schema.Resource{"cairnsdk_item": item()},
			DataSourcesMap: map[string]*schema.Resource{"cairnsdk_item": itemData()},
		}
	}})
}

func item() *schema.Resource {
	return &schema.Resource{
		Schema: map[string]*schema.Schema{
			"name":        {Type: schema.TypeString, Required: true, ForceNew: true},
			"value":       {Type: schema.TypeString, Optional: true},
			"token":       {Type: schema.TypeString, Optional: true, Sensitive: true},
			"password_wo": {Type: schema.TypeString, Optional: true, WriteOnly: true},
		},
		CreateContext: writeItem,
		UpdateContext: writeItem,
		ReadContext: func(_ context.Context, d *schema.ResourceData, m any) diag.Diagnostics {
			data, err := os.ReadFile(filepath.Join(m.(string), d.Id()))
			if errors.Is(err, os.ErrNotExist) {
				d.SetId("")
				return nil
			}
			if err != nil {
				return diag.FromErr(err)
			}
			_ = d.Set("name", d.Id())
			_ = d.Set("value", string(data))
			return nil
		},
		DeleteContext: func(_ context.Context, d *schema.ResourceData, m any) diag.Diagnostics {
			return diag.FromErr(os.Remove(filepath.Join(m.(string), d.Id())))
		},
		Importer: &schema.ResourceImporter{StateContext: schema.ImportStatePassthroughContext},
	}
}

func writeItem(ctx context.Context, d *schema.ResourceData, m any) diag.Diagnostics {
	name, value := d.Get("name").(string), d.Get("value").(string)
	if value == "fail" {
		tflog.Error(ctx, "refusing the item", map[string]any{"name": name})
		return diag.Errorf("the item %s cannot hold the value fail", name)
	}
	if err := os.WriteFile(filepath.Join(m.(string), name), []byte(value), 0o644); err != nil {
		return diag.FromErr(err)
	}
	if wo, diags := d.GetRawConfigAt(cty.GetAttrPath("password_wo")); diags.HasError() {
		return diags
	} else if wo.Type() == cty.String && !wo.IsNull() {
		if err := os.WriteFile(filepath.Join(m.(string), name+".wo"), []byte(wo.AsString()), 0o644); err != nil {
			return diag.FromErr(err)
		}
	}
	if value == "vanish" {
		return nil
	}
	d.SetId(name)
	switch value {
	case "drift":
		_ = d.Set("value", "drifted")
	case "partial":
		return diag.Errorf("the item %s was written but cannot be finished", name)
	}
	return nil
}

func itemData() *schema.Resource {
	return &schema.Resource{
		Schema: map[string]*schema.Schema{
			"name":  {Type: schema.TypeString, Required: true},
			"value": {Type: schema.TypeString, Computed: true},
		},
		ReadContext: func(_ context.Context, d *schema.ResourceData, m any) diag.Diagnostics {
			name := d.Get("name").(string)
			data, err := os.ReadFile(filepath.Join(m.(string), name))
			if err != nil {
				return diag.FromErr(err)
			}
			d.SetId(name)
			_ = d.Set("value", string(data))
			return nil
		},
	}
}
