# A provider function of a provider written with the plugin framework
# (protocol 6), called as provider::cairnfw::NAME(...): in outputs, for
# expressions, resource arguments, and with a sensitive argument.
terraform {
  required_providers {
    cairnfw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

provider "cairnfw" {
  _ {
    dir = "store" # the provider's own argument, through an escaping block
  }
}

variable "secret" {
  type      = string
  default   = "quiet"
  sensitive = true
}

resource "cairnfw_file" "f" {
  name    = "f"
  content = provider::cairnfw::shout("made")
}

output "direct" {
  value = provider::cairnfw::shout("hello")
}

output "mapped" {
  value = [for w in ["a", "b"] : provider::cairnfw::shout(w)]
}

output "content" {
  value = cairnfw_file.f.content
}

output "sensitive_argument" {
  value     = provider::cairnfw::shout(var.secret)
  sensitive = true
}
