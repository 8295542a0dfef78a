# Variables, locals, outputs and resources in assertions; state kept
# between runs; the outputs of a run in the variables of the next.
variables {
  name = "api"
}

run "create" {
  assert {
    condition     = output.label == "api-1"
    error_message = "label is ${output.label}"
  }
  assert {
    condition     = local.label == "api-1" && var.name == "api"
    error_message = "the local or the variable is wrong"
  }
  assert {
    condition     = length(terraform_data.copies) == 1
    error_message = "one copy expected"
  }
}

run "grow" {
  variables {
    size = 3
  }
  assert {
    condition     = length(output.copies) == 3 && output.copies[2] == "api-3-2"
    error_message = "three copies expected"
  }
}

run "plan_only" {
  command = plan
  variables {
    name = "${run.grow.label}-next"
  }
  assert {
    condition     = terraform_data.app.input == "api-3-next-1"
    error_message = "planned input is ${terraform_data.app.input}"
  }
}

run "fails" {
  command = plan
  assert {
    condition     = var.name == "other"
    error_message = "the name is not other"
  }
}

run "after_failure" {
  assert {
    condition     = output.label == "api-1"
    error_message = "the runs after a failed assertion still run"
  }
}
