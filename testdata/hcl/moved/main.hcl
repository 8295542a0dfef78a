# moved blocks become aliases: the new address takes over the state of the
# old one, whether a resource, an instance or a module.
resource "test_thing" "new" {
  name = "n"
}

resource "test_thing" "counted" {
  count = 2
  name  = "c${count.index}"
}

resource "test_thing" "keyed" {
  for_each = toset(["a"])
  name     = each.key
}

module "renamed" {
  source = "./child"
}

moved {
  from = test_thing.old
  to   = test_thing.new
}

moved {
  from = test_thing.counted_old
  to   = test_thing.counted
}

moved {
  from = test_thing.single
  to   = test_thing.keyed["a"]
}

moved {
  from = module.original
  to   = module.renamed
}
