# An aliased mock_provider mocks that configuration only: the default
# configuration is real. Overrides within it apply to its resources (a
# module's too), and to no other's.
mock_provider "cairnfw" {
  alias = "nowhere"
  mock_resource "cairnfw_file" {
    defaults = { size = 42 }
  }
  override_resource {
    target = cairnfw_file.real
    values = { size = 99 }
  }
  override_resource {
    target = module.site.cairnfw_file.page
    values = { size = 3 }
  }
  override_data {
    target = data.cairnfw_file.fake
    values = { content = "nested" }
  }
}

run "mocked" {
  assert {
    condition     = cairnfw_file.fake.size == 42 && cairnfw_file.real.size == 5
    error_message = "sizes are ${cairnfw_file.fake.size} and ${cairnfw_file.real.size}"
  }
  assert {
    condition     = output.site_size == 3 && data.cairnfw_file.fake.content == "nested"
    error_message = "site size is ${output.site_size}, data ${data.cairnfw_file.fake.content}"
  }
}

run "wrong_size" {
  command = plan
  assert {
    condition     = output.site_size == 42
    error_message = "site size is ${output.site_size}"
  }
}
