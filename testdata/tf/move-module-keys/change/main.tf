module "m" {
  source   = "./m"
  for_each = { first = "i0", second = "i1" }
  name     = each.value
}

moved {
  from = module.m[0]
  to   = module.m["first"]
}

moved {
  from = module.m[1]
  to   = module.m["second"]
}

output "values" {
  value = [module.m["first"].value, module.m["second"].value]
}
