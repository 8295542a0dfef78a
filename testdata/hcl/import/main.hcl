# import blocks adopt existing resources by their provider ID, also one
# instance of an expanded resource.
resource "test_thing" "single" {
  name = "adopted"
}

resource "test_thing" "many" {
  count = 2
  name  = "adopted"
}

import {
  to = test_thing.single
  id = "existing-id"
}

import {
  to = test_thing.many[1]
  id = "existing-id"
}
