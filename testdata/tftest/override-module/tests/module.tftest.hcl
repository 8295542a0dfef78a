# An overridden module call's outputs are those given (null for the
# others), and its resources are neither planned nor applied; a run's
# override beats the file's. A module's resource is overridden by its
# address.
override_module {
  target  = module.site
  outputs = { path = "/file.html" }
}

override_resource {
  target = module.extra.cairnfw_file.page
  values = { size = 5 }
}

run "file_level" {
  assert {
    condition     = output.path == "/file.html" && terraform_data.link.output == "/file.html"
    error_message = "path is ${output.path}"
  }
  assert {
    condition     = output.size == null && output.extra_size == 5
    error_message = "sizes are ${output.extra_size} and not null"
  }
}

run "per_run" {
  override_module {
    target  = module.site
    outputs = { path = "/run.html", size = 3 }
  }
  assert {
    condition     = output.path == "/run.html" && output.size == 3
    error_message = "path is ${output.path}"
  }
}

run "wrong_path" {
  command = plan
  assert {
    condition     = output.path == "/run.html"
    error_message = "path is ${output.path}"
  }
}
