# Expressions and functions, compared value for value: no resources.
variable "network" {
  type = object({
    cidr  = string
    zones = list(string)
    tags  = optional(map(string), { team = "net" })
    nat   = optional(bool, false)
  })
  default = {
    cidr  = "10.0.0.0/16"
    zones = ["a", "b", "c"]
  }
}

variable "words" {
  type    = list(string)
  default = ["alpha", "beta", "gamma", "beta"]
}

locals {
  subnets = { for i, z in var.network.zones : z => cidrsubnet(var.network.cidr, 8, i) }
  counts  = { for w in distinct(var.words) : w => length([for x in var.words : x if x == w]) }
  row     = "<td>$${cell}</td>"
}

output "subnets" {
  value = local.subnets
}

output "hosts" {
  value = [for z, s in local.subnets : cidrhost(s, 5)]
}

output "network" {
  value = var.network
}

output "counts" {
  value = local.counts
}

output "strings" {
  value = {
    joined   = join("-", sort(distinct(var.words)))
    format   = format("%05.1f|%-6s|%x", 3.14159, "ab", 255)
    regex    = regex("([a-z]+)-([0-9]+)", "web-42")
    replaced = replace("a.b.c", "/[.]/", "_")
    title    = title("hello world")
    trimmed  = trimspace("  x  ")
    split    = split(",", "a,b,,c")
    substr   = substr("terraform", 2, 4)
    template = templatestring(local.row, { cell = "x" })
    heredoc  = <<-EOT
      line one
        line two
    EOT
  }
}

output "collections" {
  value = {
    flatten   = flatten([[1, 2], [3, [4]]])
    merge     = merge({ a = 1 }, { b = 2 }, { a = 3 })
    zipmap    = zipmap(["x", "y"], [1, 2])
    setunion  = sort(setunion(["a"], ["b", "a"]))
    chunk     = chunklist([1, 2, 3, 4, 5], 2)
    lookup    = lookup({ a = "1" }, "b", "none")
    transpose = transpose({ a = ["1", "2"], b = ["2"] })
    slice     = slice(var.words, 1, 3)
    range     = range(1, 10, 3)
    coalesce  = coalesce("", "first")
    one       = one([5])
    alltrue   = alltrue([true, 1 == 1])
  }
}

output "encodings" {
  value = {
    json   = jsonencode({ b = [1, true, null], a = "x" })
    yaml   = yamlencode({ a = [1, 2], b = "c" })
    base64 = base64encode("hello")
    gzip   = base64gzip("hello")
    sha256 = sha256("hello")
    md5    = md5("hello")
    uuidv5 = uuidv5("dns", "example.com")
    url    = urlencode("a b&c")
    csv    = csvdecode("a,b\n1,2\n")
  }
}

output "numbers" {
  value = {
    max      = max(3, 7, 5)
    parse    = parseint("ff", 16)
    ceil     = ceil(1.2)
    pow      = pow(2, 10)
    division = 7 / 2
    modulo   = 7 % 3
    tonumber = tonumber("42")
    log      = log(8, 2)
  }
}

output "conditionals" {
  value = [for w in var.words : w == "beta" ? upper(w) : w if w != "gamma"]
}

output "sensitive" {
  value     = sensitive("hidden")
  sensitive = true
}

output "workspace" {
  value = terraform.workspace
}
