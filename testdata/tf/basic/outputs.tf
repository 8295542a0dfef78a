output "contents" {
  value = { for k, p in cairnfw_file.page : k => p.content }
}

output "sizes" {
  value = module.site.total
}

output "copies" {
  value = cairnsdk_item.copy[*].value
}

output "settings" {
  value = terraform_data.settings.output
}

output "summary" {
  value = module.site.summary
}
