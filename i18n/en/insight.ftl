# Screen bodies of capacity, the timeline and findings: titles, column headers, labels,
# hints and messages.

## Capacity: amounts, dimensions and the model's sentences

cap-amount-cores = { $n } { $count ->
    [one] core
   *[other] cores
}
cap-amount-memory = { $amount }
cap-amount-gpus = { $n } { $count ->
    [one] GPU
   *[other] GPUs
}
cap-amount-pod-slots = { $n } { $count ->
    [one] pod slot
   *[other] pod slots
}
cap-amount-mig = { $n } { $count ->
    [one] { $profile } MIG slice
   *[other] { $profile } MIG slices
}
cap-amount-volumes = { $n } { $count ->
    [one] { $driver } volume
   *[other] { $driver } volumes
}
cap-count-pods = { $count ->
    [one] { $n } pod
   *[other] { $n } pods
}
cap-join = { $a }, { $b }
cap-empty = {""}
cap-word-cpu = CPU
cap-word-memory = memory
cap-word-gpu = GPU
cap-word-pods = pods
cap-word-mig = MIG { $profile }
cap-word-volumes = volumes ({ $driver })
cap-word-placement = placement
cap-domain-zone = zone
cap-domain-region = region
cap-domain-rack = rack
cap-domain-clique = NVLink clique
cap-domain-topology-block = topology block
cap-domain-network-block = network block
cap-domain-failure-domain = failure-domain
cap-scn-baseline = with no loss
cap-scn-lose-node = after losing node { $node }
cap-scn-lose-nodes = after losing { $count ->
    [one] { $n } nodes
   *[other] { $n } nodes
}
cap-scn-lose-domain = after losing { $kind } { $value }
cap-scn-lose-label = after losing { $key }={ $value }
cap-scn-lose-cluster = after losing the whole cluster
cap-scn-drain-node = while draining node { $node } as a maintenance batch
cap-scn-drain-batch = while draining a maintenance batch of { $count ->
    [one] { $n } nodes
   *[other] { $n } nodes
}
cap-why-cluster-lost = the cluster is lost
cap-why-no-eligible-node = no remaining node matches its selector, tolerations or topology
cap-why-volume-domain-lost = its volume keeps it in { $domain }, where no healthy node is left
cap-why-volume-with-lost-cluster = its volume keeps it in { $domain } of the lost cluster: its data does not move
cap-why-not-run-elsewhere = no sibling runs its workload
cap-why-insufficient = no eligible node has enough free { $dim }
cap-why-fragmented = free capacity is split across nodes
cap-why-volumes-unknown = it mounts volumes and { $why }: whether it can move is unknown
cap-node-not-ready = { $n } not ready
cap-node-readiness-unknown = { $n } readiness unknown
cap-node-cordoned = { $n } cordoned
cap-node-in-maintenance = { $n } in maintenance
cap-node-tainted = { $n } tainted
cap-nodes-not-counted = nodes: { $count } of { $total } do not count: { $reasons }
cap-nodes-not-counted-in = nodes: { $count } of { $total } do not count: { $reasons }, all in { $place }
cap-place-kind = { $kind } { $value }
cap-place-label = { $key }={ $value }
cap-limit-gpu-fragmented = GPU: { $free } free but no node has { $gang } (largest gang { $largest })
cap-limit-negative-now = { $dim }: headroom is negative ({ $amount }) even with nothing lost
cap-limit-negative-after-loss = { $dim }: N−1 { $kind } headroom is negative ({ $amount }) { $scenario }
cap-limit-unplaceable = { $prefix }: { $pods } { $count ->
    [one] pod
   *[other] pods
} cannot be re-placed { $scenario } (largest group { $kind } { $namespace }/{ $name }: { $reason })
cap-limit-waiting-now = placement: { $pods } { $count ->
    [one] pod waits
   *[other] pods wait
} now (largest group { $kind } { $namespace }/{ $name }: { $reason })
cap-limit-stranded = placement: { $scenario }, every pod of { $kind } { $namespace }/{ $name } ({ $pods }) waits for it to return: their volumes are there
cap-limit-no-failure-domains = N−1: no node carries { $key }, so failure-domain headroom is unknown
cap-loss-headline = { $placed } of { $pods } placed, { $unplaced } cannot move
cap-loss-headline-unknown = its pods are unknown without fresh data; the room they have now:
cap-loss-change = { $dim } { $before } → { $after }
cap-loss-dim-amount = { $dim } { $amount }
cap-loss-takes = { $cluster }: takes { $pods }; headroom { $headroom }
cap-loss-take-nothing = take nothing (the others had more room): { $clusters }
cap-loss-run-none = run none of its workloads: { $clusters }
cap-loss-unplaced = { $pods } of { $kind } { $namespace }/{ $name }: { $reason }
cap-loss-room = { $cluster }: headroom { $headroom }
cap-loss-not-counted = not counted (no fresh data, taking nothing): { $clusters }

## Capacity screen

cap-no-cluster-listed = no cluster is listed (the filter matches none)
cap-no-domain-to-lose = { $cluster }: no failure domain to lose (or no usable data)
cap-no-domain-untrusted = no failure domain to show on { $cluster }: its data is { $status } and cannot be trusted (L still asks its siblings)
cap-nothing-to-clear = no what-if is shown: nothing to clear
cap-dim-cpu = CPU
cap-dim-memory = Memory
cap-dim-gpu = GPU
cap-dim-pods = Pods
cap-dim-other = Other
cap-used-of = { $used } of { $total }
cap-headroom-amount = headroom { $amount }
cap-left-amount = left { $amount }
cap-untrusted = { $cluster }: { $status } — capacity is not computed from data we cannot trust
cap-cluster-heading = { $cluster } · { $count ->
    [one] { $n } healthy nodes
   *[other] { $n } healthy nodes
} counted · headroom with nothing lost
cap-gpu-shape-left-out = GPU shape left out: it needs 100 columns ({ $free } of { $total } GPUs free, largest gang { $gang }; capacity --cluster { $cluster } has it all)
cap-limits-title = What limits headroom
cap-limits-title-short = Limits
cap-limits-none = nothing: every dimension has headroom, and N−1 holds
cap-col-failure-domain = FAILURE DOMAIN
cap-col-nodes = NODES
cap-col-cpu-free = CPU FREE
cap-col-mem-free = MEM FREE
cap-col-gpu-free = GPU FREE
cap-col-pods-free = PODS FREE
cap-col-node = NODE
cap-col-capacity = CAPACITY
cap-col-cluster = CLUSTER
cap-col-status = STATUS
cap-col-cpu-used = CPU USED
cap-col-mem-used = MEM USED
cap-col-pods-used = PODS USED
cap-col-largest-gang = LARGEST GANG
cap-set-aside = headroom = free below − { $parts } (pods of uncounted nodes; reserve)
cap-key-opens = opens
cap-key-loses-one = loses one
cap-key-loses-domain = loses the whole domain
cap-key-clears = clears
cap-domains-title-long = Failure domains · free on counted nodes
cap-domains-title = Failure domains
cap-no-label = (no label)
cap-nodes-in = Nodes in { $domain }
cap-counted = counted
cap-not-counted = not counted
cap-all-counted = all { $n } clusters counted
cap-some-counted = { $n } clusters counted; not counted (data not usable): { $parts }
cap-fleet-heading = Fleet · { $free } GPUs free of { $total }
cap-rows = rows { $first }–{ $last } of { $total }{ $above }
cap-rows-above = , { $n } above
cap-gpu-shape = GPU shape
cap-gpu-free-of = { $free } of { $total } GPUs free · largest gang { $gang }
cap-gpu-slots = slots on one node: { $slots }
cap-gpu-per-domain = free per topology domain (GPUs · whole nodes)
cap-gpu-no-domains = no GPU nodes with topology labels
cap-more-where = … { $n } more ({ $whole })
cap-more = … { $n } more
cap-what-if = What-if
cap-what-if-of = What-if: { $scenario }
cap-what-if-counts = { $nodes } lost · { $pods } displaced · { $placed } re-placed
cap-would-not-fit = { $n } would not fit
cap-staying = { $n } DaemonSet/static stay with their nodes
cap-blocking-pdb = PDB { $namespace }/{ $name } ({ $pods }; has { $healthy } healthy, needs { $needs })
cap-drain-would-wait = the drain would wait: { $budgets } allows no eviction now
cap-headroom = headroom
cap-taller-shows = a taller terminal shows them
cap-lose-whole = What-if: lose { $cluster } whole
cap-siblings = siblings { $chosen }
cap-no-sibling = no sibling: no other serving cluster in its environment and region
cap-cli-has-all = capacity --what-if cluster={ $cluster } has all
cap-what-if-cleared = what-if on { $cluster } cleared: its data cannot be trusted now
cap-what-if-untrusted = no what-if on { $cluster }: its data is { $status } and cannot be trusted
cap-what-if-no-node = no what-if on { $cluster }: no node is known there

## Timeline

tl-no-event = no event to open here
tl-unknown-key = { $key }: unknown key ({ $keys })
tl-since-equals-only = { $term }: since takes = only (since=30m)
tl-since-unreadable = since={ $value }: not a duration, a date or an RFC 3339 time (try 30m, 8h)
tl-live-tail = LIVE TAIL
tl-live-tail-key = LIVE TAIL ({ $key }stops)
tl-paused-tail = paused tail
tl-paused-tail-key = paused tail ({ $key }follows)
tl-events-of = { $shown } of { $total } events
tl-not-listed = {" "}(engine observations not listed)
tl-not-applied = not applied: { $problems }
tl-filter = filter: { $filter }
tl-no-match = no event matches the filter
tl-no-match-key = no event matches the filter ({ $hint })
tl-key-clears = clears it
tl-col-seq = SEQ
tl-col-time = TIME
tl-col-actor = ACTOR
tl-col-kind = KIND
tl-col-cluster = CLUSTER
tl-col-what = WHAT
tl-detail-title = event { $seq } · esc closes
tl-field-time = time
tl-field-actor = actor
tl-field-kind = kind
tl-field-run = run
tl-field-item = item
tl-field-step = step
tl-field-cluster = cluster
tl-field-key = key
tl-field-token = token

## Findings: the model's summaries and how to clear them (rules 1–8)

fd-src-serving = API server serving certificate
fd-src-kubeconfig-ca = kubeconfig CA
fd-src-client = kubeconfig client certificate
fd-src-exec = exec plugin credential
fd-src-webhook = caBundle of { $configuration } ({ $webhook })
fd-src-apiservice = caBundle of APIService/{ $name }
fd-when-today-ago = today ({ $date }, { $hours } hours ago)
fd-when-day-ago = 1 day ago ({ $date })
fd-when-days-ago = { $n } days ago ({ $date })
fd-when-in-hours = in { $hours }h ({ $date })
fd-when-in-day = in 1 day ({ $date })
fd-when-in-days = in { $n } days ({ $date })
fd-cert-expiry-unknown = { $what }: expiry unknown
fd-cert-expired = { $what } expired { $when }
fd-cert-expires = { $what } expires { $when }
fd-cred-expired = exec plugin handed out a credential that expired { $when }
fd-cred-expires = exec plugin credential expires { $when } (refreshed by running the plugin again)
fd-expiry-wave = { $clusters } clusters have certificates expiring in the week of { $week } ({ $certificates } certificates)
fd-fix-cert-unreadable = make it readable (see the reason); until then its expiry is unknown, not fine
fd-fix-renew-serving = renew the API server's serving certificate (kubeadm certs renew apiserver, or your provider's rotation)
fd-fix-renew-kubeconfig-ca = rotate the cluster CA and hand out a kubeconfig trusting the new one
fd-fix-renew-client = issue a new client certificate for this kubeconfig user (or move to an exec plugin)
fd-fix-renew-exec = log in again through the exec plugin
fd-fix-renew-webhook = renew the webhook's serving certificate and update the caBundle of { $configuration } (cert-manager's CA injector does both)
fd-fix-renew-apiservice = renew the aggregated API's serving certificate and update APIService/{ $name }'s caBundle
fd-fix-stagger = stagger the renewals: renew some clusters' certificates early so they do not all expire together
fd-webhook-fail-closed-kube-system = { $subject } fails closed on kube-system
fd-webhook-fail-closed-everywhere = { $subject } fails closed on every namespace
fd-webhook-slow = { $subject } may hold every matching request for { $seconds }s
fd-webhook-no-endpoint-refused = { $subject } has no ready endpoint: every request it matches is refused now
fd-webhook-no-endpoint-unchecked = { $subject } has no ready endpoint: requests it matches go through unchecked
fd-apiservice-unavailable = aggregated API { $name } is unavailable
fd-fix-webhook-kube-system = exclude kube-system in its namespaceSelector (kubernetes.io/metadata.name NotIn [kube-system]), or set failurePolicy: Ignore
fd-fix-webhook-everywhere = limit its namespaceSelector to the namespaces it must guard, or set failurePolicy: Ignore
fd-fix-webhook-slow = lower timeoutSeconds to { $seconds } or less
fd-fix-webhook-endpoints = bring the pods behind service { $service } back, or delete the webhook configuration if it is gone for good
fd-fix-apiservice = bring the pods behind service { $service } back, or delete APIService/{ $name } if the API is gone for good
fd-apf-catch-all = our requests land in the { $level } priority level (FlowSchema { $schema })
fd-apf-throttled = the API server answered { $total } of our requests with 429 Too Many Requests ({ $recent } in the last { $window })
fd-fix-apf-own = give fleetdeck its own FlowSchema and bounded priority level (examples/flowschema-fleetdeck.yaml)
fd-fix-apf-qps = lower [sync] qps and burst in config.toml, or give fleetdeck its own priority level (examples/flowschema-fleetdeck.yaml)
fd-check-fails = { $endpoint } check { $check } fails
fd-fix-check = look at the API server's log for the { $check } check (kubectl get --raw '/{ $endpoint }/{ $check }')
fd-privilege-missing = the { $job } identity { $user } may not { $rights }{ $more ->
    [0] {""}
   *[other] {" "}(+{ $more } more)
}
fd-fix-privilege-missing = grant the role `fleetdeck rbac --job { $job }` prints
fd-privilege-excess = the { $job } identity { $user } can change far more than its job needs: { $rights }{ $more ->
    [0] {""}
   *[other] {" "}(+{ $more } more)
}
fd-fix-privilege-excess = bind it to the role `fleetdeck rbac --job { $job }` prints instead, or give the job a context of its own (jobContexts)
fd-version-unsupported = { $minor } left upstream support on { $date }
fd-version-leaving-support = { $minor } leaves upstream support on { $date }, in { $days } days
fd-fix-version-support = plan its upgrade (fleetdeck upgrade check --to the next minor)
fd-version-behind = { $minor } is { $behind } minors behind the fleet's newest ({ $newest }): no single upgrade brings it level
fd-fix-version-behind = upgrade it one minor at a time (fleetdeck upgrade check --to the next minor)
fd-request-errors = { $percent }% of our requests failed over the last { $window }
fd-fix-request-errors = look at the API server and what stands between it and fleetdeck (load balancer, network)
fd-request-latency = our requests' p99 latency is { $p99 } ms over the last { $window }
fd-fix-latency = look at the API server's load (apiserver_request_duration_seconds) and etcd
fd-age-days = { $n } days
fd-age-hours = { $n }h
fd-backup-undeclared = { $cluster } is { $kind } but the ledger declares no backup
fd-fix-backup-declare = declare the cluster's backup in the ledger (location, lastSuccess, rpo, lastRestoreDrill, rto)
fd-backup-never = no successful backup is recorded
fd-fix-backup-record = record the last successful backup in the ledger (backup.lastSuccess), from your backup tool's report
fd-backup-rpo = last successful backup is { $age } old, beyond the RPO of { $rpo }
fd-fix-backup-why = find out why backups stopped (the backup tool's last runs), then record the new lastSuccess
fd-drill-age = last restore drill was { $days } days ago ({ $date })
fd-fix-drill = rehearse a restore, then record it (backup.lastRestoreDrill and lastRestoreDrillDuration)
fd-drill-never = no restore drill is recorded: nobody knows whether its backups restore
fd-drill-rto = the last restore drill took { $took }, beyond the RTO of { $rto }
fd-fix-rto = make restores faster, or agree a longer RTO and write it in the ledger
fd-gitops-suspended = { $object } is suspended: nothing reconciles it with its source
fd-fix-gitops-resume = resume its sync once the incident is over (fleetdeck gitops resume { $cluster } { $kind } { $namespace }/{ $name })
fd-gitops-out-of-sync = { $object } is OutOfSync
fd-gitops-out-of-sync-for = { $object } is OutOfSync for { $duration }
fd-fix-gitops-sync = sync it (or fix what keeps it from syncing), or suspend its sync on purpose during an incident
fd-gitops-degraded = { $object } is Degraded
fd-gitops-degraded-for = { $object } is Degraded for { $duration }
fd-gitops-missing = { $object } is Missing
fd-gitops-missing-for = { $object } is Missing for { $duration }
fd-fix-gitops-degraded = look at what it deployed (its resources' health), and at the last change to its source
fd-window-override = changes may start outside the maintenance window until { $until } (override by { $by })
fd-fix-window-override = it ends by itself at its end; end it now with `fleetdeck window override { $cluster } --for 0s --reason …`
fd-outside-window = outside its maintenance window: { $waiting } { $count ->
    [one] waits
   *[other] wait
} until it opens
fd-fix-outside-window = wait for the window, or override it with a reason (`fleetdeck window override`)
fd-burn = burn rate { $short }x over { $window } is above its maximum { $max }x, but { $long }: the gate holds
fd-burn-long = { $long }x over { $window } (maximum { $max }x)
fd-burn-long-unknown = unknown over { $window }
fd-fix-burn = watch the long window: it halts the rollout if the burn goes on; pause the rollout if the spike is real
fd-unknown = { $what }: unknown ({ $why })
fd-fix-unknown = make it readable (RBAC: get/list, the cluster reachable); until then it is unknown, not fine

## Findings screen and the drill-down's findings panel

fd-col-severity = SEVERITY
fd-col-cluster = CLUSTER
fd-col-rule = RULE
fd-col-since = SINCE
fd-col-summary = SUMMARY
fd-sev-critical = CRITICAL
fd-sev-warning = warning
fd-sev-info = info
fd-sev-short-critical = CRIT
fd-sev-short-warning = warn
fd-sev-short-info = info
fd-did-you-mean = { $key } (did you mean { $suggestion }?)
fd-fleet-wide-no-cluster = a fleet-wide finding has no one cluster to open
fd-none-to-open = no finding to open here
fd-none-selected = no finding selected
fd-shown-of = { $shown } of { $total } findings
fd-n-critical = { $n } critical
fd-n-warning = { $n } warning
fd-n-info = { $n } info
fd-sort = sort { $column } { $arrow }
fd-filter = filter: { $keys }
fd-since = since { $when }
fd-to-clear = to clear it: { $how }
fd-expiry-week = certificates of { $n } clusters expire in the week of { $week }
fd-none = no findings in what could be read
fd-no-match = no finding matches the filter
fd-no-match-key = no finding matches the filter ({ $hint })
fd-count = { $count ->
    [one] { $n } finding
   *[other] { $n } findings
}
fd-panel-lists-them = { $key } lists them
fd-panel-head-none = findings: none in what could be read
fd-panel-head = { $findings }, worst { $worst }:{" "}
fd-panel-title-fleet = Findings ({ $n }) · { $key } lists the whole fleet's
fd-panel-title-all = Findings ({ $n }) · { $key } all of them
fd-panel-title = Findings ({ $n })
fd-panel-none = none in what could be read
fd-panel-more = and { $n } more
fd-what-live-facts = live facts
fd-what-priority-levels = the priority levels of our requests
fd-what-priority-level = the priority level of our requests
fd-what-journal = the journal (window overrides, changes waiting for windows, rollouts' burn rates)
fd-what-gitops = GitOps objects
fd-what-webhooks = admission webhooks
fd-what-apiservices = aggregated APIs
fd-what-as-is = { $what }
fd-why-no-journal = no journal connected

## What a journal event says (the timeline's WHAT, the detail panel)

tl-ev-planned = planned: { $title }
tl-ev-run-status = run { $run }: { $status }
tl-ev-in-hands = { $at }: in { $to }'s hands
tl-ev-step-status = { $at }: { $status }
tl-ev-intent = { $at }: { $action } (intent)
tl-ev-outcome-ok = { $at }: { $call } ok
tl-ev-outcome-not-ok = { $at }: { $call } not ok
tl-ev-waits = { $at }: waits: { $why }
tl-ev-node-event-failed = { $at }: node event { $reason } NOT recorded on the cluster: { $error }
tl-ev-paused = paused { $scope }: { $reason }
tl-ev-resumed = resumed { $scope }
tl-ev-resumed-noted = resumed { $scope }: { $note }
tl-ev-guard = GUARD paused { $scope }: { $reason }
tl-ev-window-overridden = maintenance window of { $cluster } overridden until { $until }: { $reason }
tl-ev-gitops-intent = { $action } sync of { $kind } { $namespace }/{ $name } (intent): { $reason }
tl-ev-sync-changed = sync changed: { $detail }
tl-ev-sync-not-changed = sync NOT changed: { $detail }
tl-ev-handed-off = { $at }: handed off to { $to }
tl-ev-handed-off-noted = { $at }: handed off to { $to }: { $note }
tl-ev-taken-over = { $at }: taken over
tl-ev-taken-over-noted = { $at }: taken over: { $note }
tl-ev-returned = { $at }: returned ({ $outcome })
tl-ev-returned-noted = { $at }: returned ({ $outcome }): { $note }
tl-ev-aborted = aborted
tl-ev-aborted-noted = aborted: { $note }
tl-ev-refused = REFUSED { $command }: { $reason }
tl-ev-refused-on = { $at }: REFUSED { $command }: { $reason }
tl-ev-note = note: { $text }
tl-ev-note-on = { $at }: { $text }
tl-ev-unreadable = UNREADABLE { $kind } event, skipped by every reader: { $reason }
tl-ev-acknowledged = acknowledged { $title }
tl-ev-acknowledged-noted = acknowledged { $title }: { $note }
tl-ev-batch = batch { $n }: { $phase }
tl-ev-staged = { $at }: staged { $digest }
tl-ev-applied = { $at }: applied { $digest }
tl-ev-verified = { $at }: verified { $outcome }
tl-ev-gate-passed = gate after batch { $n }: passed
tl-ev-gate-halt = gate after batch { $n }: halt: { $why }
tl-ev-halted = HALTED at batch { $n }: { $why }
tl-ev-approved-batch = approved batch { $n }
tl-ev-approved-batch-noted = approved batch { $n }: { $note }
tl-ev-approved = approved
tl-ev-approved-noted = approved: { $note }
tl-ev-kind = { $kind }
