# removed blocks with destroy = false forget resources without deleting
# them; with destroy = true (the default) they only record the deletion.
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
}
