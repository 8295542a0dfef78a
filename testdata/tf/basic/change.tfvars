# One page updated, one added, one removed; a copy fewer; a new
# generation, which replaces what it triggers.
generation = 2
copies     = 1
pages = {
  home    = { body = "welcome back", tags = ["main", "new"] }
  contact = { body = "write to us" }
}
