terraform {
  required_providers {
    cairnfw = {
      source                = "cairn/cairnfw"
      configuration_aliases = [cairnfw.target]
    }
  }
}

resource "cairnfw_file" "f" {
  provider = cairnfw.target
  name     = "leaf"
  content  = "leaf"
}

output "id" {
  value = cairnfw_file.f.id
}
