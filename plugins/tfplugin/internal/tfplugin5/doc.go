// Package tfplugin5 holds the messages and gRPC client of the Terraform
// provider plugin protocol, version 5.10, generated from tfplugin5.proto
// (see ../../generate.go).
package tfplugin5
