# for expressions: the types they make (a tuple from [], an object from
# {}), grouping with ..., filters, over maps (keys sorted), sets and
# strings of lists.
variable "people" {
  type = list(object({ name = string, team = string }))
  default = [
    { name = "ann", team = "web" },
    { name = "bob", team = "db" },
    { name = "cat", team = "web" },
  ]
}

output "by_team" {
  value = { for p in var.people : p.team => p.name... }
}

output "upper" {
  value = [for p in var.people : upper(p.name) if p.team == "web"]
}

output "indexed" {
  value = { for i, p in var.people : p.name => i }
}

output "over_map" {
  value = [for k, v in { z = 1, a = 2, m = 3 } : "${k}${v}"]
}

output "over_set" {
  value = [for s in toset(["b", "a"]) : s]
}

output "nested" {
  value = [for p in var.people : [for c in split("", p.name) : c if c != "a"]]
}
