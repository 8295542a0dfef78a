# Local-exec provisioners on terraform_data and hashicorp/null: what the
# creation-time ones write becomes outputs (read once the resources,
# provisioners included, are done); the destroy-time ones clean up. The
# change replaces some resources (their provisioners run again) and
# updates one in place (they do not).
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "~> 3.2" }
  }
}

variable "greeting" {
  type    = string
  default = "hello"
}

variable "generation" {
  type    = number
  default = 1
}

resource "terraform_data" "note" {
  count            = 2
  input            = "${var.greeting} ${count.index}"
  triggers_replace = var.generation

  provisioner "local-exec" {
    command     = "printf '%s' \"$MSG\" > note-${count.index}.txt"
    environment = { MSG = self.output }
  }
  provisioner "local-exec" {
    when    = destroy
    command = "rm -f note-${count.index}.txt"
  }
}

resource "terraform_data" "plain" {
  input = var.greeting

  provisioner "local-exec" {
    command = "printf '%s' '${self.output}' > plain.txt"
  }
}

resource "null_resource" "stamp" {
  for_each = toset(["x"])
  triggers = { generation = var.generation }

  provisioner "local-exec" {
    command    = "printf '%s' 'stamped ${each.key}' > stamp-${each.key}.txt; exit 1"
    on_failure = continue
  }
}

output "notes" {
  value = [for i, n in terraform_data.note : n.id != "" ? try(file("note-${i}.txt"), "missing") : ""]
}

output "plain" {
  value = terraform_data.plain.id != "" ? try(file("plain.txt"), "missing") : ""
}

output "stamp" {
  value = null_resource.stamp["x"].id != "" ? try(file("stamp-x.txt"), "missing") : ""
}
