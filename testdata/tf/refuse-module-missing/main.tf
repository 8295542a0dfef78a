# A local module source naming a folder that does not exist: refused by
# both.
module "m" {
  source = "./missing"
}
