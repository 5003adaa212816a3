# The CLI's tables for people: column headers. The id is `col-` and the English header
# in lower case; the English is the header exactly as the table shows it.

col-id = ID
col-env = ENV
col-region = REGION
col-failure-domain = FAILURE-DOMAIN
col-tier = TIER
col-lifecycle = LIFECYCLE
col-kubernetes = KUBERNETES
col-owner = OWNER
col-context = CONTEXT
col-cluster = CLUSTER
col-status = STATUS
col-server = SERVER
col-age = AGE
col-identity = IDENTITY
col-nodes = NODES
col-pods = PODS
col-cpu = CPU
col-memory = MEMORY
col-gpu = GPU
col-note = NOTE
