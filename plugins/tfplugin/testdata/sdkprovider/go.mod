module example.com/terraform-provider-cairnsdk

go 1.26

require github.com/hashicorp/terraform-plugin-sdk/v2 v2.40.1 // indirect
