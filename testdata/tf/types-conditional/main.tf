# The type of a conditional's result: both arms unified to one type,
# null on one side, and an arm that is only known at apply.
variable "on" {
  type    = bool
  default = true
}

resource "terraform_data" "later" {
  input = "computed"
}

output "lists" {
  value = var.on ? [1, 2] : ["a"]
}

output "maps" {
  value = var.on ? { a = 1 } : { b = "x" }
}

output "null_arm" {
  value = var.on ? "set" : null
}

output "with_null_object" {
  value = var.on ? null : { a = 1 }
}

output "computed" {
  value = var.on ? terraform_data.later.output : "fallback"
}

output "number_or_string" {
  value = var.on ? 5 : "five"
}
