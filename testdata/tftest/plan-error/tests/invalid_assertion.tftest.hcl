# An assertion naming an attribute the resource does not have is an
# error of its run.
run "no_such_attribute" {
  assert {
    condition     = terraform_data.a[0].nope == 1
    error_message = "never evaluated"
  }
}
