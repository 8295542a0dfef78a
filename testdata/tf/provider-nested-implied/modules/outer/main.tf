module "inner" {
  source = "../inner"
  name   = "nested"
}

data "cairnfw_file" "f" {
  name = module.inner.id
}

output "content" {
  value = data.cairnfw_file.f.content
}
