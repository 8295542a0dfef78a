run "variable_fails" {
  command = plan
  variables {
    port = 80
  }
  expect_failures = [var.port]
}

run "output_fails" {
  command = plan
  variables {
    mode = "broken"
  }
  expect_failures = [output.url]
}

run "check_fails" {
  variables {
    port = 8081
  }
  expect_failures = [check.port_even]
}

run "resource_fails" {
  variables {
    port = 9998
  }
  expect_failures = [terraform_data.server]
}

run "expected_but_passes" {
  command = plan
  expect_failures = [var.port]
}
