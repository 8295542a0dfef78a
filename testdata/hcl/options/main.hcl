# Meta-arguments and options: depends_on, lifecycle (mapped to the engine's
# options; replacements delete first unless create_before_destroy) and
# the pulumi block for the Pulumi options without a Terraform twin.
resource "test_thing" "base" {
  name = "base"
}

resource "test_thing" "tf" {
  name       = "tf"
  tags       = { a = "b" }
  depends_on = [test_thing.base]

  lifecycle {
    create_before_destroy = true
    prevent_destroy       = true
    ignore_changes        = [tags["a"], length]
    replace_triggered_by  = [test_thing.base.name]
  }
}

resource "test_thing" "ignore_all" {
  name = "all"
  lifecycle {
    ignore_changes = all
  }
}

resource "test_widget" "pulumi" {
  display_name = "p"
  max_size     = 1

  pulumi {
    name                      = "renamed-widget"
    parent                    = test_thing.base
    retain_on_delete          = true
    deleted_with              = test_thing.base
    replace_on_changes        = [max_size, settings.log_level]
    additional_secret_outputs = ["public_url"]
    hide_diffs                = [display_name]
    aliases                   = [{ name = "old-widget", no_parent = true }]
    custom_timeouts           = { create = "5m", delete = "1h" }
    version                   = "1.0.0"
    replace_with              = [test_thing.base]
    replacement_trigger       = test_thing.base.name
  }
}

resource "test_thing" "imported" {
  name = "adopted"
  pulumi {
    import_id = "existing-id"
    protect   = false
  }
}
