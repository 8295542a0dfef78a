# A whole resource of a provider written with the plugin framework:
# its nested blocks, computed attributes, unset optional ones (null) and
# its id; its sensitive attribute, set or not, makes the object
# sensitive.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  dir = "store"
}

resource "cairnfw_file" "plain" {
  name    = "plain"
  content = "hello"
  tag {
    key   = "team"
    value = "web"
  }
  tag {
    key = "bare"
  }
}

resource "cairnfw_file" "secret" {
  name   = "secret"
  secret = "hunter2"
}

output "plain" {
  value     = cairnfw_file.plain
  sensitive = true
}

output "secret" {
  value     = cairnfw_file.secret
  sensitive = true
}

output "plain_keys" {
  value = keys(cairnfw_file.plain)
}
