# One server fewer, a new release: every server is replaced, the load
# balancer too (its list of servers changes), the pinned one stays.
servers = ["a", "b"]
release = "v2"
