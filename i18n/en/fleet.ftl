# Screen bodies of the fleet: the ledger, a cluster's drill-down, a node's page and the
# PDB pod list: titles, column headers, labels, hints and messages.

## Counts

fleet-count-pods = { $count ->
    [one] { $n } pod
   *[other] { $n } pods
}
fleet-count-contexts = { $count ->
    [one] { $n } kubeconfig context
   *[other] { $n } kubeconfig contexts
}

## Ledger

fleet-col-cluster = CLUSTER
fleet-col-env = ENV
fleet-col-region = REGION/FD
fleet-col-tier = TIER
fleet-col-k8s = K8S
fleet-col-nodes = NODES
fleet-col-gpus = GPUS
fleet-col-status = STATUS · LAST HEARD
fleet-col-status-short = STATUS
fleet-col-findings = FINDINGS
fleet-col-in-flight = IN FLIGHT
fleet-col-owner = OWNER
fleet-col-backup = BACKUP
fleet-col-drill = DRILL
fleet-order = { $column }, { $order }
fleet-order-worst-first = worst first
fleet-order-healthiest-first = healthiest first
fleet-order-most-not-ready = most not ready first
fleet-order-fewest-not-ready = fewest not ready first
fleet-order-changing-first = changing first
fleet-order-changing-last = changing last
fleet-order-fewest-first = fewest first
fleet-order-oldest-first = oldest first
fleet-order-newest-first = newest first
fleet-order-fewest-free = fewest free first
fleet-order-most-free = most free first
fleet-order-a-z = A→Z
fleet-order-z-a = Z→A
fleet-ledger-shown = { $shown } of { $total } clusters
fleet-ledger-sort = · sort { $order }
fleet-ledger-by-region = · grouped by region
fleet-ledger-by-env = · grouped by env
fleet-ledger-marked = · { $n } marked
fleet-ledger-filter-unknown = · filter: { $keys }
fleet-ledger-rows-above = · rows { $first }–{ $last } of { $total }, { $above } above
fleet-ledger-rows = · rows { $first }–{ $last } of { $total }
fleet-ledger-tail = : { $list }
fleet-ledger-tail-more = : { $list } (+{ $n } more)
fleet-ledger-unregistered-reconcile = { $what } not in the ledger{ $tail } (ledger reconcile)
fleet-ledger-unregistered = { $what } not in the ledger{ $tail }
fleet-ledger-unregistered-short = { $n } unregistered
fleet-ledger-empty = the ledger has no clusters
fleet-ledger-version-ledger = { $version } (ledger)
fleet-ledger-zone-down = { $nodes }, { $zone } down
fleet-ledger-one-zone-down = { $nodes }, 1 zone down
fleet-ledger-zone-down-short = { $nodes } zone down
fleet-ledger-zones-down = { $nodes }, { $n } zones down
fleet-ledger-zones-down-short = { $nodes } zones down
fleet-ledger-heard = { $status } { $ago } ago
fleet-ledger-never-heard = { $status }, never heard
fleet-none = none
fleet-never = never
fleet-none-paren = (none)
fleet-no-data = no data
fleet-no-cluster-listed = no cluster is listed (the filter matches none)
fleet-no-cluster-marked = no cluster is marked

## Shared by the tables

fleet-no-match = no { $what } matches the filter
fleet-no-match-key = no { $what } matches the filter ({ $key } clears it)
fleet-noun-cluster = cluster
fleet-noun-node = node

## Cluster drill-down

fleet-cluster-where = { $place }  tier { $tier }  owner { $owner }
fleet-cluster-heard = { $status }, last heard { $ago } ago
fleet-cluster-never-synced = { $status }, never synced
fleet-cluster-versions = { $live } (ledger { $ledger })
fleet-identity-matched-then = identity matched when last checked
fleet-identity-matching = identity pinned and matching
fleet-identity-not-pinned = identity not pinned: actions refused
fleet-identity-mismatch-below = IDENTITY MISMATCH (below)
fleet-identity-not-checked = identity not checked yet
fleet-identity-mismatch = IDENTITY MISMATCH: { $reason }
fleet-cluster-no-counts = no node or pod data
fleet-cluster-nothing-read = nothing has been read from it; nothing here counts
fleet-cluster-last-seen = the figures below are the last seen, not current; nothing here counts
fleet-cluster-not-fresh = { $status } — { $what }
fleet-cluster-not-fresh-why = { $status } — { $what }: { $why }
fleet-cluster-partial = part of its data could not be read
fleet-cluster-degraded = Degraded — counted, but: { $why }
fleet-cluster-no-data-yet = no data for this cluster yet
fleet-credential = credential: { $kind } as { $user } · { $expiry }{ $runs ->
    [0] {""}
    [one] {" "}· its plugin ran once
   *[other] {" "}· its plugin ran { $runs } times
}
fleet-credential-expires-in = good for { $left }
fleet-credential-expired = expired { $ago } ago
fleet-credential-no-expiry = no expiry given
fleet-credential-not-yet = not obtained yet
fleet-credential-problem = credentials, { $kind }: { $message }
fleet-credential-login-hint = press i, or type :login { $context }, to log in with { $program } on this terminal
fleet-credential-warning = renewal failed, the credential in hand is still good: { $message }
fleet-credential-stderr = { $program } said: { $line }
fleet-col-node = NODE
fleet-col-zone = ZONE
fleet-col-block = BLOCK
fleet-col-ready = READY
fleet-col-cordon = CORDON
fleet-col-maintenance = MAINTENANCE
fleet-col-gpus-free = GPUS FREE
fleet-col-pods = PODS
fleet-col-counts = COUNTS AS CAPACITY
fleet-yes = yes
fleet-no = no
fleet-in-maintenance = in maintenance
fleet-counts-no-fresh-data = no: no fresh data
fleet-counts-no = no: { $why }
fleet-health-healthy = healthy
fleet-health-not-ready = not ready
fleet-health-readiness-unknown = readiness unknown
fleet-health-cordoned = cordoned
fleet-health-in-maintenance = in maintenance
fleet-health-taint = taint { $key }
fleet-cluster-no-nodes = the cluster has no nodes
fleet-cluster-no-node-data = no node data: nothing is known about this cluster's nodes
fleet-panels-left-out = PDB, findings and journal panels left out: enlarge the terminal
fleet-panels-left-out-short = panels left out (enlarge)
fleet-pdbs-title-open = PDBs that would block a drain ({ $count }) · { $key } pods
fleet-pdbs-title = PDBs that would block a drain ({ $count })
fleet-pdbs-title-medium = PDBs blocking a drain ({ $count })
fleet-pdbs-title-short = blocking PDBs ({ $count })
fleet-pdbs-none = none: every PDB allows a disruption now
fleet-pdbs-unknown = unknown: no fresh data from this cluster
fleet-pdb-on = { $pods } on { $nodes }
fleet-pdb-line-long = { $name } has { $has }, needs { $needs } healthy · { $on }
fleet-pdb-line = { $name } has { $has }, needs { $needs } healthy
fleet-pdb-line-short = { $name } { $has }/{ $needs } healthy
fleet-events-title = Recent journal events
fleet-events-title-short = Journal
fleet-events-no-journal = no journal connected: events unknown
fleet-events-none = no events for this cluster
fleet-no-pdb-to-open = no PDB blocks a drain here: nothing to open
fleet-marks-for-nodes = marks are for nodes
fleet-marks-for-nodes-key = marks are for nodes ({ $key } goes back to them)
fleet-no-node-listed = no node is listed here
fleet-no-node-marked = no node is marked
fleet-no-data-for = no data for { $id } yet: no node to select

## Node page

fleet-node-not-found = node { $node } is not in cluster { $cluster }'s current data (removed, or the cluster has none)
fleet-node-title = node { $node }
fleet-node-where = cluster { $cluster } · zone { $zone } · block { $block } · kubelet { $kubelet }
fleet-node-counts = counts as capacity: { $answer }
fleet-node-cordoned = cordoned
fleet-node-not-cordoned = not cordoned
fleet-node-held = in maintenance (journal)
fleet-node-reserved = reserved by an approved maintenance batch
fleet-node-in-service = in service
fleet-node-pods-used = pods { $used } of { $total }
fleet-node-requested = { $dimension } { $used } of { $total } requested
fleet-dim-memory = memory
fleet-node-taints-none = taints: none
fleet-node-taints = taints: { $taints }
fleet-node-labels = labels: { $labels }
fleet-node-pods = { $pods } on this node
fleet-node-pods-trouble = { $pods } on this node, { $n } to look at before a drain
fleet-node-no-pods = no pod holds resources on this node
fleet-col-pod = POD
fleet-col-pod-owner = OWNER
fleet-col-pod-status = STATUS
fleet-col-cpu = CPU
fleet-col-memory = MEMORY
fleet-col-gpu = GPU
fleet-col-fate = IF DRAINED, MOVES
fleet-fate-moves = yes
fleet-fate-blocked = blocked by PDB { $pdb }
fleet-fate-held = only within { $domain } (volume)
fleet-fate-no-room = no: { $why }
fleet-fate-stays = stays with the node
fleet-fate-terminating = terminating
fleet-fate-bare = bare pod: deleted, not re-created
fleet-fate-no-node = no other node takes it

## PDB pod list

fleet-pdb-title-long = PDB { $pdb } on { $cluster } · { $open } opens the pod's node · { $close } closes
fleet-pdb-title = PDB { $pdb } · { $close } closes
fleet-pdb-gone = this budget is not in the cluster's current data (deleted, or no fresh data)
fleet-pdb-summary = has { $has } healthy, needs { $needs }, allows { $allowed } disruption(s) now · { $pods } on { $nodes }
fleet-col-eviction = EVICTION NOW
fleet-not-scheduled = (not scheduled)
fleet-eviction-refused = refused
fleet-eviction-allowed = allowed

## Moving through a list (every screen)


## What-ifs asked from a cluster's drill-down or a node's page


## Why a drained node's pod finds no room (the what-if's reasons, as on the node page)

fleet-unplaced-cluster-lost = the cluster is lost
fleet-unplaced-no-eligible = no remaining node matches its selector, tolerations or topology
fleet-unplaced-volume-domain = its volume keeps it in { $domain }, where no healthy node is left
fleet-unplaced-volume-lost-cluster = its volume keeps it in { $domain } of the lost cluster: its data does not move
fleet-unplaced-not-run-elsewhere = no sibling runs its workload
fleet-unplaced-insufficient = no eligible node has enough free { $dimension }
fleet-unplaced-fragmented = free capacity is split across nodes
fleet-unplaced-volumes-unknown = it mounts volumes and { $why }: whether it can move is unknown
