terraform {
  required_providers {
    fw = { source = "cairn/cairnfw", version = "~> 1.0" }
  }
}

# No provider block: the provider's required dir is not set, which only
# a mock lets run.
resource "cairnfw_file" "note" {
  provider = fw
  name     = "note"
  content  = "hello"
}

output "size" {
  value = cairnfw_file.note.size
}
