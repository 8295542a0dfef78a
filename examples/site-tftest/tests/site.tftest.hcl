# cairn test (or tofu test) runs these runs in order, against a
# throwaway stack, and destroys it at the end.
variables {
  prefix = "docs"
}

run "plan_names" {
  command = plan

  assert {
    condition     = local.names == ["docs-home", "docs-about"]
    error_message = "names are ${jsonencode(local.names)}"
  }
}

run "create" {
  assert {
    condition     = output.count == 2
    error_message = "two pages expected, not ${output.count}"
  }
  assert {
    condition     = output.paths == tolist(["/docs-about.html", "/docs-home.html"])
    error_message = "paths are ${jsonencode(output.paths)}"
  }
}

run "add_a_page" {
  variables {
    pages = ["home", "about", "blog"]
  }

  assert {
    condition     = terraform_data.page["docs-blog"].output.name == "docs-blog"
    error_message = "the blog page is missing"
  }
}

run "bad_prefix" {
  command = plan
  variables {
    prefix = "Docs!"
  }
  expect_failures = [var.prefix]
}
