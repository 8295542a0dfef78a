# Null: a root output of null is left out; null inside collections and
# objects is kept; coalesce, compact, defaults of null arguments; a
# module output of null.
variable "maybe" {
  type    = string
  default = null
}

variable "not_nullable" {
  type     = string
  default  = "fixed"
  nullable = false
}

resource "terraform_data" "nothing" {
  input = null
}

output "gone" {
  value = var.maybe
}

output "kept_inside" {
  value = { a = null, b = [null, "x"] }
}

output "coalesce" {
  value = [coalesce(var.maybe, "fallback"), coalesce("", "second")]
}

output "compact" {
  value = compact(["a", "", "b"])
}

output "stored_null" {
  value = terraform_data.nothing.output == null
}

output "not_nullable" {
  value = var.not_nullable
}

output "equality" {
  value = [var.maybe == null, null == null]
}
