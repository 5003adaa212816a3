# The CLI's output for people other than tables' headers: progress, summaries and errors.

## rollout plan / start / show
rollout-live-drift = live versions differ from the ledger on {$count} target(s); canaries picked by what runs:
rollout-not-observed = live versions not read for {$count} target(s), planned by the ledger's: {$ids}
rollout-apply-order = apply order ({$count} object(s); by path, kinds others depend on first):
rollout-plan-head = rollout {$release} ({$digest}): {$targets} cluster(s), {$combinations} combination(s), {$stages} stage(s)
rollout-bundle = bundle: {$bundle}
rollout-warning = warning: {$warning}
rollout-stage = stage {$stage}:
rollout-batch = batch {$n}: {$ids}
rollout-first-tests = first tests {$combo}
rollout-untested-last = untested when the last stage starts ({$count}):
rollout-start-readonly = read-only mode: refusing to start a rollout (drop --readonly to act)
rollout-started = rollout {$run} started by {$actor}: {$targets} cluster(s) in {$batches} batch(es), release {$release} ({$digest})
rollout-already-applied = {$count} cluster(s) already run this digest: verified, not applied again, once their release record confirms it
rollout-distinct-approver = distinctApprover: someone other than {$actor} approves its batches
rollout-follow = the executor (`fleetdeck run`, or the console) carries it out; follow it with `fleetdeck rollout show {$run}`
rollout-show-head = rollout {$run} ({$title}): {$status}
rollout-halted = halted: {$why}
rollout-failed-or-unknown = failed or unknown:
rollout-waiting = waiting:
rollout-live-not-read = live versions not read ({$why}): canaries are picked by the ledger's versions

## pause / resume
pause-done = paused {$scope} (journal event {$seq})
resume-done = resumed {$scope} (journal event {$seq})

## config paths: the first column and the notes beside the paths
config-not-created = {" "}(not created)
config-none = (none)
config-row-config = config
config-row-themes = themes/keymaps
config-row-data = data
config-row-journal = journal
config-row-log = log
config-row-ledger = ledger
config-row-actor = actor
config-row-readonly = readonly

## demo
demo-gates-started = rollout gates: burn rate from a Prometheus the demo started at {$url}, scraping the simulator, and live checks
demo-gates-configured = rollout gates: burn rate from the configured Prometheus {$url}, and live checks
demo-gates-live-checks = rollout gates: live checks only (nodes and workloads ready, one failed cluster halts): no Prometheus ({$why}); install prometheus for burn-rate gates
demo-no-prometheus = no prometheus binary in PATH
demo-prometheus-failed = prometheus did not start: {$error}
demo-notice = demo: simulated fleet '{$scenario}' (seed {$seed}) on https://{$addr} · {$gates}
demo-scenario-named = {$name}: {$description}
scenario-small = Three small clusters for fast tests
scenario-demo = Forty clusters in three regions with GPUs, PDBs and drift
scenario-large = 300 clusters for benchmarks
scenario-findings = One cluster per fleet finding

## snapshot: the NOTE column
snapshot-connecting-identity = connecting: identity (kube-system UID, /version) not read yet; a longer --wait-synced gives it time
snapshot-connecting-lists = connecting: first lists not complete; a longer --wait-synced gives them time
snapshot-identity-unconfirmed = identity not confirmed yet (read again until it answers): no change is made to it meanwhile
snapshot-drift = drift from the ledger: {$drift} (ledger reconcile){$more}
snapshot-more-capacity-limits = { $count ->
    [one] ; +1 capacity limit (capacity --cluster {$cluster})
   *[other] ; +{$count} capacity limits (capacity --cluster {$cluster})
}
snapshot-more-limits = { $count ->
    [one] ; +1 more limit (capacity --cluster {$cluster})
   *[other] ; +{$count} more limits (capacity --cluster {$cluster})
}

## maintenance and run
maintenance-plan-head = maintenance {$name} on cluster {$cluster}: {$count} node(s)
maintenance-missing-node = missing: node {$node} is not in the node list
maintenance-not-planned = not planned: {$node}: {$why}
maintenance-show-head = run {$run} ({$title}): {$status}
maintenance-paused = paused ({$scope}) by {$by} since {$since}: {$reason}
maintenance-waits = {$item} waits: {$why}
maintenance-dry-run = dry run: nothing recorded
maintenance-started = started run {$run}; `fleetdeck run` executes it
maintenance-recorded = {$verb} recorded for {$node} in {$run} by {$actor}
maintenance-aborted = run {$run} aborted by {$actor}; nothing already done is undone
maintenance-readonly = read-only mode: {$what} is refused (drop --readonly to act)
maintenance-what-start = starting maintenance
maintenance-what-executor = running the executor
run-acting-for-shard = shard {$shard} ({$count} clusters)
run-acting-for-fleet = the fleet
run-started = executor {$actor} started for {$acting_for} (journal {$journal})

## shared
cli-did-you-mean = {" "}(did you mean {$suggestion}?)

## journal
journal-schema = journal {$journal}: {$what}
journal-schema-current = schema version {$version} (up to date)
journal-schema-migrated = schema version {$from} → {$to}
journal-grant-roles = grant them to login roles: GRANT fleetdeck_operator TO alice;
journal-revoked = revoked from PUBLIC: { $what }
journal-not-revoked = NOT revoked ({ $why }): { $what }; run `journal init --roles` as a superuser, or do it by hand (docs/team.md)
journal-prepared-transactions = warning: max_prepared_transactions is { $n }: a writer can hold the journal's write lock past its own disconnect with a prepared transaction; set it to 0 unless another application on this server needs it
journal-harden-connect = CONNECT on the journal's database (the fleetdeck roles keep it)
journal-harden-temp = TEMPORARY (temporary tables) on the journal's database
journal-harden-public-schema = CREATE on the schema public
journal-harden-large-objects = creating large objects (lo_creat, lo_create, lo_from_bytea, lo_import)
journal-unreadable-skipped = warning: { $n } journal events cannot be read and were skipped (every reader goes on without them): { $rows }; `fleetdeck journal` lists them
journal-sqlite-roles = --roles: a SQLite journal has no roles (its actor is who the process says it is); team roles need a PostgreSQL journal
journal-copied = copied {$copied} events ({$already} were there already); both journals hold {$events} events up to sequence {$last}
journal-no-events = no events: {$hint}
journal-no-cluster = no cluster {$name} in the journal{$hint}
journal-no-run = no run {$name} in the journal{$hint}

## errors fleetdeck writes itself
no-ledger-given = no ledger given: pass --ledger FILE, set FLEETDECK_LEDGER, or set `ledger` in {$config}
cluster-not-in-ledger = cluster {$cluster} is not in the ledger
approve-needs-ledger = the batch's clusters are checked before an approval
ack-refused = refusing to start {$what}: {$expired}; renew or remove the exception in the ledger, or start it anyway with --acknowledge-expired-exceptions (journaled)
ack-what-rollout = rollout {$release}
ack-what-maintenance = maintenance on {$cluster}
window-not-a-cluster = {$cluster} is not a cluster of the ledger{$hint}
gitops-not-a-kind = {$kind} is not a GitOps kind fleetdeck changes: application, kustomization or helmrelease
gitops-readonly = read-only mode: refusing to {$verb} the sync of {$object} (drop --readonly to act)
gitops-not-namespace-name = {$object} is not NAMESPACE/NAME
gitops-refusing = {$cluster}: refusing to {$verb} the sync of {$target}

## findings
findings-none = No findings in what could be read.
findings-week = {$week} ({$count} clusters)
findings-busy-weeks = certificates of several clusters expire in the weeks of: {$weeks}
findings-flows = {$cluster}: our requests land in {$flows}
findings-failed = {" "}(exit 1: at or above --fail-on {$fail_on})
findings-summary = {$total} findings: {$critical} critical, {$warning} warning, {$info} info{$failed}

## ledger reconcile
reconcile-n-clusters = {$count} clusters
reconcile-not-compared = Not compared (the ledger's word is unconfirmed, not wrong):
reconcile-not-compared-line = {$component} on {$clusters}: {$why}
reconcile-no-context = no kubeconfig context
reconcile-context-not-in-ledger = context not in ledger
reconcile-suggested = Suggested ledger edits (the ledger is not changed):

## rollout plan: maintenance windows of the targets
rollout-windows = maintenance windows: {$open} of {$count} target(s) may change now
rollout-window-waits = {$cluster}: {$says} (an apply waits until then)

## capacity
capacity-place-cluster = cluster {$cluster}
capacity-place-any = any cluster with fresh data
capacity-no-zone = zone={$zone}: no node of {$place} is in it{$hint}; {$key}: {$known}
capacity-no-node = node={$nodes}: no such node in {$place}{$hint}

## the console without a ledger, a selector's unknown key
console-no-ledger = no ledger configured (pass --ledger FILE, set FLEETDECK_LEDGER, or set `ledger` in {$config}).
console-try-demo = To try the console on a simulated fleet, run:
console-no-kubeconfig = {$error}; no cluster can be reached
selector-unknown-key = warning: -l {$key}

## ledger reconcile's DRIFT and DETAIL cells, ledger contexts' STATUS
drift-unobservable = unobservable
drift-identity = identity
drift-identity-not-pinned = identity not pinned
drift-observed-uid = observed kubeSystemUID {$uid} at {$server}
drift-kubelet-skew = kubelet skew
drift-kubelet-skew-detail = API server {$api_server}; kubelets outside the supported skew (newer, or more than 3 minors older): {$live}
drift-version = {$component} version
drift-version-detail = ledger {$ledger}, live {$live}
contexts-missing = missing context
contexts-server-differs = server differs from pinned identity ({$pinned})

## capacity's blocks
capacity-fit = fits on {$nodes}; largest on one node {$largest}; {$free} free in total
capacity-gang-what-if = {$request} {$scenario}: {$fit} (today: {$today})
capacity-not-counted = {$cluster} — {$status}: no fresh data, not counted
capacity-gpu-shape = GPU shape: {$free} free of {$total}; slots {$slots}; largest gang {$largest}
capacity-gpu-domain = {$key}={$value}: {$free} free of {$total}, {$nodes} free
capacity-n-minus-one = N−1 worst: {$dimension}: {$headroom} after losing {$domain}
capacity-limit = limit: {$limit}
capacity-staying = {" "}({$pods} go with their nodes: DaemonSet, static)
capacity-what-if = what-if {$scenario}: {$lost} lost, {$displaced} displaced{$staying}, {$placed} placed, {$unplaced} cannot be placed
capacity-pods-of = {$pods} of {$owner}: {$reason}
capacity-unknown-pods = UNKNOWN for {$pods}: the answer above treats them as free to move, which nobody can tell
capacity-headroom-after = headroom after: {$dimension} {$headroom}
capacity-gang = gang {$gang}
capacity-caveat = caveat: {$caveat}
capacity-gang-fleet = gang {$request}{$what_if}: fits on one node in {$fits} of {$count} clusters with {$resource}{$list}
capacity-counted = {$counted} of {$count} clusters counted
capacity-left-out = ; not counted: {$list}
count-whole-nodes = { $count ->
    [one] {$n} whole node
   *[other] {$n} whole nodes
}
count-pods = { $count ->
    [one] {$n} pod
   *[other] {$n} pods
}

## reading files
cannot-read = cannot read {$path}
not-a-node-list = {$path} is not a NodeList in JSON
spec-errors = {$file}: {$errors} error(s)
batches-from-one = batches are counted from 1
pause-bad-domain = --domain {$domain}: expected CLUSTER/DOMAIN

## more refusals and notices
capacity-gang-expects = --gang expects e.g. 8xnvidia.com/gpu
capacity-siblings-needs-what-if = --siblings names the clusters that would take a lost cluster's pods: it goes with --what-if cluster=C
capacity-two-clusters = --cluster {$asked} and --what-if cluster={$lost} name different clusters: drop one
console-readonly-no-executor = read-only: no executor runs in this console; it writes to no cluster and no journal
console-readonly = read-only: this console writes to no cluster and no journal
demo-temp-dir = creating the demo's temporary directory
approve-not-in-ledger = not in the ledger
contexts-not-in-ledger = not in ledger
not-started = {$file}: not started
maintenance-refusing-plan = {$cluster}: refusing to plan maintenance
logging-disabled = logging disabled ({$reason})
maintenance-needs-nodes = nodes are selected by `{$selector}`: pass --nodes FILE (kubectl get nodes -o json) to plan without the cluster
rollout-bad-manifests = {$file}: release manifests: {$error}
rollout-cannot-read-manifests = cannot read manifest directory {$path}
rollout-manifest-not-utf8 = manifest {$path} is not UTF-8 text
ledger-expired-warning = warning: ledger {$ledger}: {$expired}: renew or remove it (`fleetdeck ledger validate`); observing goes on, new changes to {$cluster} need --acknowledge-expired-exceptions

## Where an error happened (before the error itself)

ctx-journal = journal { $target }
ctx-journal-failed = journal { $target }: { $error }
ctx-copy = copy { $from } → { $to }
ctx-creating = creating { $path }
ctx-writing = writing { $path }
reconcile-decide = DECIDE
snapshot-count-line = { $clusters } clusters: { $statuses }
as-refused-on-postgres = --as { $claimed } is refused on a PostgreSQL journal: the database records every event under the role you log in as ({ $user }), so the journal cannot say anyone else did it; log in as { $claimed }'s own role instead
rbac-unknown-job = unknown job { $job }: the jobs are read, maintenance and release
rbac-bad-bind = --bind { $bind }: write JOB=user:NAME, JOB=group:NAME or JOB=serviceaccount:NAMESPACE/NAME
rbac-rollout-invalid = { $path } is not a valid rollout file (see the errors above)
upgrade-bad-target = --to { $to } is not a Kubernetes minor release (write v1.32)
upgrade-more = { $first } (+{ $more } more below)
upgrade-cluster-head = { $cluster }: { $readiness } for { $target }
upgrade-blocker = {"  "}✗ { $what }: { $fix }
upgrade-unknown = {"  "}? { $what }
upgrade-summary = { $clusters } clusters: { $ready } ready, { $blocked } blocked, { $unknown } unknown, { $there } already at the target
