# Another organization replaces both certificates and the request; fewer
# usages would replace the signed certificate anyway.
org  = "Other"
uses = ["server_auth"]
