# A type label may be the full token (or a short form the schema resolves);
# references still use the Terraform-style name.
resource "random:index/randomPet:RandomPet" "a" {
  length = 1
}

resource "test:Thing" "b" {
  name = "b"
}

resource "command:local:Command" "c" {
  create = "echo hi"
}

output "names" {
  value = [random_pet.a.length, test_thing.b.name, command_local_command.c.stdout]
}
