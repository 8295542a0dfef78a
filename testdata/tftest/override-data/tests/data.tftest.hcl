# An overridden data source is answered by the values given, without its
# provider; a run's override beats the file's.
override_data {
  target = data.cairnfw_file.read
  values = { content = "from the file" }
}

run "file_level" {
  command = plan
  assert {
    condition     = data.cairnfw_file.read.content == "from the file"
    error_message = "content is ${data.cairnfw_file.read.content}"
  }
}

run "per_run" {
  override_data {
    target = data.cairnfw_file.read
    values = { content = "from the run" }
  }
  assert {
    condition     = output.content == "from the run" && cairnfw_file.copy.size == 12
    error_message = "content is ${output.content}, size ${cairnfw_file.copy.size}"
  }
}

run "wrong_content" {
  command = plan
  assert {
    condition     = output.content == "from the run"
    error_message = "content is ${output.content}"
  }
}

run "generated" {
  command = plan
  override_data {
    target = data.cairnfw_file.read
  }
  assert {
    condition     = length(output.content) > 0 && output.content != "from the file"
    error_message = "content is ${output.content}"
  }
}

run "not_computed" {
  command = plan
  override_data {
    target = data.cairnfw_file.read
    values = { name = "other" }
  }
}
