# Templates that render templates, which OpenTofu allows (to a depth) and
# Terraform refuses: templatestring inside templatestring and
# templatefile, templatefile inside both.
locals {
  greeting = "Hello, $${name}!"
}

output "string_in_string" {
  value = templatestring("[$${templatestring(t, { name = n })}]", { t = local.greeting, n = "ann" })
}

output "string_in_file" {
  value = templatefile("${path.module}/list.tmpl", { t = local.greeting, names = ["bob", "cy"] })
}

output "file_in_string" {
  value = templatestring("<$${templatefile(p, { t = t, names = names })}>", { p = "${path.module}/list.tmpl", t = local.greeting, names = ["dee"] })
}

output "file_in_file" {
  value = templatefile("${path.module}/wrap.tmpl", { t = local.greeting, names = ["eve", "fay"] })
}

output "sensitive_inside" {
  value     = templatestring("$${templatestring(t, { name = n })}", { t = local.greeting, n = sensitive("gus") })
  sensitive = true
}
