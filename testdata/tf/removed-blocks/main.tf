# removed blocks as OpenTofu plans them, in change/: one that destroys its
# resource, one with lifecycle { destroy = false } that forgets its
# resource, and one that forgets every instance of a counted resource.
resource "terraform_data" "gone" {
  input = "gone"
}

resource "terraform_data" "kept" {
  input = "kept"
}

resource "terraform_data" "counted" {
  count = 2
  input = count.index
}

resource "terraform_data" "stays" {
  input = "stays"
}

output "stays" {
  value = terraform_data.stays.output
}
