# Arguments are checked against the provider's schema before anything runs.
resource "test_widget" "w" {
  display_nme = "typo"
  max_size    = 1

  settings {
    max_sise = 2
  }
  settings {
    max_size = 3
  }

  dynamic "ingress_rule" {
    for_each = [1]
    content {}
  }
}

resource "test_needy" "n" {
}

resource "random_pett" "p" {
}

data "test_get_thin" "d" {
}
