# A module call with count renamed with a moved block (change/): its
# instances move, and nothing is created or deleted.
module "old" {
  source = "./m"
  count  = 2
  name   = "n${count.index}"
}

output "values" {
  value = module.old[*].value
}
