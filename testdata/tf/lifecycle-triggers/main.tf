# replace_triggered_by with references to an attribute, an instance, the
# instance of the same key (count.index, each.key) and a whole resource,
# and ignore_changes of one argument and of all: change.tfvars changes the
# first source, the keyed "b" source and the single one.
variable "sources" {
  type    = list(string)
  default = ["s0", "s1"]
}

variable "keyed" {
  type    = map(string)
  default = { a = "a", b = "b" }
}

variable "single" {
  type    = string
  default = "one"
}

resource "terraform_data" "src" {
  count = 2
  input = var.sources[count.index]
}

resource "terraform_data" "by_key" {
  for_each = var.keyed
  input    = each.value
}

resource "terraform_data" "single" {
  input = var.single
}

resource "terraform_data" "by_attribute" {
  input = "attribute"

  lifecycle {
    replace_triggered_by = [terraform_data.src[0].output]
  }
}

resource "terraform_data" "by_unchanged_instance" {
  input = "unchanged"

  lifecycle {
    replace_triggered_by = [terraform_data.src[1]]
  }
}

resource "terraform_data" "per_index" {
  count = 2
  input = count.index

  lifecycle {
    replace_triggered_by = [terraform_data.src[count.index]]
  }
}

resource "terraform_data" "per_key" {
  for_each = var.keyed
  input    = each.key

  lifecycle {
    replace_triggered_by = [terraform_data.by_key[each.key].output]
  }
}

resource "terraform_data" "whole" {
  input = "whole"

  lifecycle {
    replace_triggered_by = [terraform_data.single]
  }
}

resource "terraform_data" "ignored" {
  input = var.single

  lifecycle {
    ignore_changes = [input]
  }
}

resource "terraform_data" "ignore_all" {
  input = var.sources

  lifecycle {
    ignore_changes = all
  }
}

resource "terraform_data" "not_ignored" {
  input = var.single
}

output "ignored" {
  value = terraform_data.ignored.output
}
