# ignore_changes of a key (input["b"]) of terraform_data's input, as
# OpenTofu reads it: in a map, that key alone; in an object, the whole
# value before the key (so a change of input["a"] is ignored too). An
# attribute (input.b) of an object is that attribute alone. change.tfvars
# changes every value and is applied; change2.tfvars plans another change.
variable "b" {
  default = "b1"
}

resource "terraform_data" "object_key" {
  input = { a = var.b, b = var.b }

  lifecycle {
    ignore_changes = [input["b"]]
  }
}

resource "terraform_data" "map_key" {
  input = tomap({ a = var.b, b = var.b })

  lifecycle {
    ignore_changes = [input["b"]]
  }
}

resource "terraform_data" "map_key_only" {
  input = tomap({ a = "a", b = var.b })

  lifecycle {
    ignore_changes = [input["b"]]
  }
}

resource "terraform_data" "object_attribute" {
  input = { a = var.b, b = var.b }

  lifecycle {
    ignore_changes = [input.b]
  }
}

resource "terraform_data" "nested_object_key" {
  count = 2
  input = { inner = { a = var.b, b = "${var.b}-${count.index}" } }

  lifecycle {
    ignore_changes = [input.inner["b"]]
  }
}

resource "terraform_data" "nested_map_key" {
  input = { inner = tomap({ a = var.b, b = var.b }) }

  lifecycle {
    ignore_changes = [input.inner["b"]]
  }
}

resource "terraform_data" "list_index" {
  input = ["x", var.b]

  lifecycle {
    ignore_changes = [input[1]]
  }
}

output "inputs" {
  value = [
    terraform_data.object_key.output,
    terraform_data.map_key.output,
    terraform_data.map_key_only.output,
    terraform_data.object_attribute.output,
    terraform_data.nested_object_key[1].output,
    terraform_data.nested_map_key.output,
    terraform_data.list_index.output,
  ]
}
