# A mocked provider: computed attributes get the defaults, else
# generated values; overrides beat both, a run's beat the file's.
mock_provider "cairnfw" {
  mock_resource "cairnfw_file" {
    defaults = { size = 42 }
  }
  mock_data "cairnfw_file" {
    defaults = { content = "mocked" }
  }
}

override_resource {
  target = cairnfw_file.other
  values = { size = 7, id = "fixed" }
}

run "plan_default" {
  command = plan
  assert {
    condition     = cairnfw_file.note.size == 42
    error_message = "size is ${cairnfw_file.note.size}"
  }
  assert {
    condition     = length(cairnfw_file.note.id) > 0
    error_message = "id is ${cairnfw_file.note.id}"
  }
}

run "plan_override" {
  command = plan
  assert {
    condition     = cairnfw_file.other.size == 7
    error_message = "size is ${cairnfw_file.other.size}"
  }
  assert {
    condition     = cairnfw_file.other.id == "fixed"
    error_message = "id is ${cairnfw_file.other.id}"
  }
}

run "plan_data" {
  command = plan
  assert {
    condition     = data.cairnfw_file.read.content == "mocked"
    error_message = "content is ${data.cairnfw_file.read.content}"
  }
}

run "apply" {
  assert {
    condition     = output.size == 42 && output.content == "mocked" && length(output.id) > 0
    error_message = "outputs are ${output.size}, ${output.id}, ${output.content}"
  }
  assert {
    condition     = cairnfw_file.other.id == "fixed" && cairnfw_file.other.content == "x"
    error_message = "other is ${cairnfw_file.other.id}"
  }
}

run "wrong_default" {
  assert {
    condition     = output.size == 0
    error_message = "size is ${output.size}"
  }
}

run "per_run" {
  override_resource {
    target = cairnfw_file.other
    values = { size = 9 }
  }
  assert {
    condition     = cairnfw_file.other.size == 9
    error_message = "size is ${cairnfw_file.other.size}"
  }
}

run "data_override" {
  command = plan
  override_data {
    target = data.cairnfw_file.read
    values = { content = "overridden" }
  }
  assert {
    condition     = data.cairnfw_file.read.content == "overridden"
    error_message = "content is ${data.cairnfw_file.read.content}"
  }
}
