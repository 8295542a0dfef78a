variable "env" {
  type    = string
  default = "dev"
}

variable "generation" {
  type    = number
  default = 1
}

variable "copies" {
  type    = number
  default = 2
}

variable "pages" {
  type = map(object({
    body = string
    tags = optional(list(string), [])
  }))
  default = {
    home  = { body = "welcome", tags = ["main"] }
    about = { body = "about us" }
  }
}
