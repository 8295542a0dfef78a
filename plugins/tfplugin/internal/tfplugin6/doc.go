// Package tfplugin6 holds the messages and gRPC client of the Terraform
// provider plugin protocol, version 6.10, generated from tfplugin6.proto
// (see ../../generate.go).
package tfplugin6
