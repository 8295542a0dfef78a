# Strings as Terraform makes them: heredocs (indented and not),
# template directives with strip markers, escapes, and unicode.
locals {
  items = ["a", "b", "c"]
}

output "heredoc" {
  value = <<-EOT
    first
      indented
    last
  EOT
}

output "directives" {
  value = "%{for i, x in local.items}${x}%{if i < length(local.items) - 1},%{endif}%{endfor}"
}

output "strip" {
  value = <<EOT
%{~for x in local.items~}
[${x}]
%{~endfor~}
EOT
}

output "escapes" {
  value = ["$${literal}", "%%{literal}", "tab\tquote\"", "\u00e9"]
}

output "unicode" {
  value = [length("héllo"), upper("straße"), substr("日本語", 1, 1), strrev("abc")]
}
