# pulumi { required_providers } gives the packages' versions to their
# resources, data sources and providers.
pulumi {
  required_providers {
    test   = "1.0.0"
    random = { version = "4.0.0", plugin_download_url = "https://example.com/random" }
  }
}

resource "test_thing" "t" {
  name = "t"
}

resource "random_pet" "p" {
  pulumi {
    version = "4.1.0"
  }
}

data "test_get_thing" "d" {
  name = "d"
}

