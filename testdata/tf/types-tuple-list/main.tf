# Tuples and lists as Terraform types them: a literal of mixed types is a
# tuple, tolist unifies its elements, concat and indexing across both.
locals {
  mixed = [1, "a", true]
  same  = ["x", "y"]
}

output "mixed" {
  value = local.mixed
}

output "tolist" {
  value = tolist(local.mixed)
}

output "concat" {
  value = concat(local.mixed, local.same, tolist([2, 3]))
}

output "element" {
  value = [element(local.mixed, 4), local.same[1]]
}

output "lengths" {
  value = [length(local.mixed), length([]), length(tolist([]))]
}

output "cannot_unify" {
  value = can(tolist([{ a = 1 }, "b"]))
}

output "reverse_slice" {
  value = [reverse(local.same), slice(local.mixed, 1, 3)]
}

output "nested" {
  value = [[1, 2], ["a"], []]
}
