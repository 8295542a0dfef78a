# A mock_provider named by its local name; without defaults a number
# is 0.
mock_provider "fw" {}

run "generated" {
  assert {
    condition     = output.size == 0 && length(cairnfw_file.note.id) > 0
    error_message = "size is ${output.size}"
  }
}

run "wrong" {
  command = plan
  assert {
    condition     = cairnfw_file.note.content == "bye"
    error_message = "content is ${cairnfw_file.note.content}"
  }
}
