# An overridden resource needs no provider: its computed attributes get
# the values given (else generated ones), a run's override beating the
# file's; the other resources use the real provider.
override_resource {
  target = cairnfw_file.fake
  values = { size = 3 }
}

override_resource {
  target = module.site.cairnfw_file.page
}

override_data {
  target = data.cairnfw_file.fake
}

run "overridden" {
  assert {
    condition     = output.fake_size == 3 && length(cairnfw_file.fake.id) > 0
    error_message = "size is ${output.fake_size}"
  }
  assert {
    condition     = cairnfw_file.real.size == 5
    error_message = "the real file's size is ${cairnfw_file.real.size}"
  }
}

run "per_run" {
  override_resource {
    target = cairnfw_file.fake
    values = { size = 4 }
  }
  assert {
    condition     = output.fake_size == 4
    error_message = "size is ${output.fake_size}"
  }
}

run "wrong_size" {
  command = plan
  assert {
    condition     = output.fake_size == 4
    error_message = "size is ${output.fake_size}"
  }
}

run "not_computed" {
  command = plan
  override_resource {
    target = cairnfw_file.fake
    values = { content = "over" }
  }
}
