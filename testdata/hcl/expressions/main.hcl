# The whole native syntax: conditionals, for expressions, splats,
# templates with directives, heredocs, try and can, and the function
# library; path and pulumi references.
locals {
  names  = ["alpha", "beta", "gamma"]
  upper  = [for n in local.names : upper(n) if n != "beta"]
  byname = { for i, n in local.names : n => i }
  big    = length(local.names) > 2 ? "big" : "small"
  list   = <<-EOT
    %{for n in local.names~}
    - ${n}
    %{endfor~}
  EOT
  safe   = try(local.byname.delta, "none")
  ok     = can(regex("^a", "abc"))
  json   = jsonencode({ a = 1, b = [true, null] })
  yaml   = yamldecode("x: [1, 2]")
  subnet = cidrsubnet("10.0.0.0/16", 8, 2)
  merged = merge({ a = 1 }, { b = 2 })
  flat   = flatten([[1, 2], [3]])
  zipped = zipmap(["k1", "k2"], ["v1", "v2"])
  hash   = sha256("cairn")
  b64    = base64encode("cairn")
  fmt    = format("%03d-%s", 7, "x")
  coal   = coalesce("", "second")
  file   = trimspace(file("${path.module}/greeting.txt"))
  secret = sensitive("s3cr3t")
}

resource "test_thing" "t" {
  name  = "${local.big}-${pulumi.stack}-${pulumi.project}"
  items = local.upper
  tags  = local.zipped
}

output "values" {
  value = {
    upper  = local.upper
    byname = local.byname
    list   = local.list
    safe   = local.safe
    ok     = local.ok
    json   = local.json
    yaml   = local.yaml
    subnet = local.subnet
    merged = local.merged
    flat   = local.flat
    hash   = local.hash
    b64    = local.b64
    fmt    = local.fmt
    coal   = local.coal
    file   = local.file
    root   = path.root
    module = path.module
    splat  = [test_thing.t][*].name
  }
}

output "secret" {
  value = nonsensitive(local.secret)
}

output "asset" {
  value = stringasset("text")
}
