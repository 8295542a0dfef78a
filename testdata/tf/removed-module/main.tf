# removed blocks naming module calls (change/): one whose resources are
# destroyed, one, with count, whose resources are forgotten
# (destroy = false).
module "destroyed" {
  source = "./m"
  name   = "destroyed"
}

module "forgotten" {
  source = "./m"
  count  = 2
  name   = "forgotten${count.index}"
}

resource "terraform_data" "stays" {
  input = "stays"
}

output "stays" {
  value = terraform_data.stays.output
}
