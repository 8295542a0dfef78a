# replace_triggered_by in a chain: a replaced resource triggers a second,
# whose replacement triggers a third; one triggered by an instance of a
# counted resource that is only updated is replaced too (an update is a
# change).
variable "v" {
  default = "one"
}

resource "terraform_data" "root" {
  triggers_replace = var.v
}

resource "terraform_data" "second" {
  input = "second"

  lifecycle {
    replace_triggered_by = [terraform_data.root]
  }
}

resource "terraform_data" "third" {
  input = "third"

  lifecycle {
    replace_triggered_by = [terraform_data.second.id]
  }
}

resource "terraform_data" "updated" {
  count = 2
  input = "${var.v}-${count.index}"
}

resource "terraform_data" "by_updated" {
  input = "by_updated"

  lifecycle {
    replace_triggered_by = [terraform_data.updated[1]]
  }
}

output "third" {
  value = terraform_data.third.output
}
