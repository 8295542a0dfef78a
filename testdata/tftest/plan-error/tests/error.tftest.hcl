run "first" {
  assert {
    condition     = output.n == 1
    error_message = "one expected"
  }
}

run "invalid" {
  command = plan
  variables {
    count_of = 7
  }
}

run "never" {
  assert {
    condition     = output.n == 1
    error_message = "runs after an error are skipped"
  }
}
