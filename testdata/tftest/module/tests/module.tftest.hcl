run "setup" {
  module {
    source = "./setup"
  }
  variables {
    prefix = "site"
  }
  assert {
    condition     = output.bucket == "site-bucket"
    error_message = "bucket is ${output.bucket}"
  }
}

run "main" {
  variables {
    bucket = run.setup.bucket
  }
  assert {
    condition     = output.path == "site-bucket/index.html"
    error_message = "path is ${output.path}"
  }
}

run "main_wrong" {
  command = plan
  variables {
    bucket = run.setup.bucket
  }
  assert {
    condition     = terraform_data.object.input == "elsewhere"
    error_message = "input is ${terraform_data.object.input}"
  }
}
