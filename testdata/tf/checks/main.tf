# check blocks: scoped data sources read within the check, whose failed
# reads and failed assertions are warnings, never errors.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

variable "motd" {
  type    = string
  default = "hello"
}

resource "cairnfw_file" "motd" {
  name    = "motd"
  content = var.motd
}

# Reads the file the resource wrote: known once it exists.
check "motd_written" {
  data "cairnfw_file" "motd" {
    name = cairnfw_file.motd.name
  }

  assert {
    condition     = data.cairnfw_file.motd.content == var.motd
    error_message = "The motd file holds ${data.cairnfw_file.motd.content}."
  }
}

# Reads a file nobody wrote: the read fails, as a warning.
check "missing" {
  data "cairnfw_file" "missing" {
    name = "missing"
  }

  assert {
    condition     = data.cairnfw_file.missing.content != ""
    error_message = "The missing file is empty."
  }
}

# Fails its assertion: a warning too.
check "short" {
  assert {
    condition     = length(var.motd) > 10
    error_message = "The motd is short."
  }
}

output "motd" {
  value = cairnfw_file.motd.content
}
