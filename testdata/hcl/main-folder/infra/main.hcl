# The program is the *.hcl files of the folder main: names; relative paths
# resolve there, and positions name the files from the project's folder.
resource "test:index:Thing" "thing" {
  value = file("notes.txt")
}

output "cwd" {
  value = basename(path.cwd)
}

output "text" {
  value = file("notes.txt")
}
