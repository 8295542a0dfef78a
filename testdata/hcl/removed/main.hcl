# removed blocks forget resources without deleting them, by default as in
# OpenTofu; with destroy = true they only record the deletion.
resource "test_thing" "kept" {
  name = "kept"
}

removed {
  from = test_thing.gone
  lifecycle {
    destroy = false
  }
}

removed {
  from = random_pet.instance[1]
  lifecycle {
    destroy = false
  }
}

removed {
  from = test_thing.deleted

  lifecycle {
    destroy = true
  }
}

# Without lifecycle { destroy }, forgotten, as OpenTofu forgets it.
removed {
  from = test_thing.defaulted
}
