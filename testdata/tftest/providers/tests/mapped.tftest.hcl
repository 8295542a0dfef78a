# A run's providers mapping chooses among the test file's provider
# blocks: the file cannot be written in a folder that does not exist.
provider "cairnfw" {
  dir = "store"
}

provider "cairnfw" {
  alias = "nowhere"
  dir   = "no-such-folder"
}

run "mapped" {
  providers = {
    cairnfw = cairnfw.nowhere
  }
  variables {
    unused = 1
  }
}
