# The set functions and what they give: sorted sets.
locals {
  a = toset(["d", "b", "a"])
  b = toset(["c", "b", "e"])
}

output "union" {
  value = setunion(local.a, local.b)
}

output "intersection" {
  value = setintersection(local.a, local.b)
}

output "subtract" {
  value = setsubtract(local.a, local.b)
}

output "product" {
  value = setproduct(local.a, ["1", "2"])
}

output "contains" {
  value = [contains(local.a, "a"), contains(local.a, "z")]
}

output "length" {
  value = length(setunion(local.a, local.b))
}

output "distinct_vs_set" {
  value = [distinct(["b", "a", "b"]), tolist(toset(["b", "a", "b"]))]
}

output "equal" {
  value = toset(["a", "b"]) == toset(["b", "a"])
}

output "one_of_one" {
  value = one(toset(["only"]))
}
