# The config changes in place, which replaces the release that lists it
# in replace_triggered_by; the motd changes (in place); the notes ignore
# the change.
version_tag = "2"
motd        = "bye"
