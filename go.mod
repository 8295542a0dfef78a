module github.com/cairn-iac/cairn

go 1.26.8

require golang.org/x/mod v0.41.0
