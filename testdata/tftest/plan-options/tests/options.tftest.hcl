run "create" {
  assert {
    condition     = terraform_data.b.output == "b"
    error_message = "b is created"
  }
}

run "replace_a" {
  variables {
    previous = run.create.a_id
  }
  plan_options {
    replace = [terraform_data.a]
  }
  assert {
    condition     = output.a_id != var.previous
    error_message = "a was not replaced"
  }
}

run "keep_a" {
  variables {
    previous = run.replace_a.a_id
  }
  plan_options {
    refresh = false
  }
  assert {
    condition     = output.a_id == var.previous
    error_message = "a was replaced again"
  }
}

run "target_b" {
  command = plan
  plan_options {
    target = [terraform_data.b]
  }
  assert {
    condition     = terraform_data.b.input == "b"
    error_message = "b is targeted"
  }
}

run "wrong_input" {
  command = plan
  assert {
    condition     = terraform_data.a.input == "z"
    error_message = "a's input is ${terraform_data.a.input}"
  }
}
