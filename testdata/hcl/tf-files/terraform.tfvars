name        = "tfvars"
size        = 2
from_config = "tfvars"
