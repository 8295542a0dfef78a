# The test file's provider blocks replace the configuration's.
provider "cairnfw" {
  dir = "store"
}

run "default" {
  assert {
    condition     = output.size == 5
    error_message = "size is ${output.size}"
  }
}

run "wrong_size" {
  command = plan
  assert {
    condition     = cairnfw_file.note.content == "bye"
    error_message = "content is ${cairnfw_file.note.content}"
  }
}
