# Screen bodies: titles, column headers, labels, hints and messages.

## Rollouts

rollouts-none = No rollout runs in the journal. `fleetdeck rollout start FILE` journals one; its batches, clusters and gates show here.
rollouts-no-journal = No journal connected: rollouts cannot be shown.
rollouts-list-heading = RUN · STATUS
rollouts-list-heading-more = RUN · STATUS ({ $n } runs, ↑↓)
rollouts-started-by = started by { $by } { $ago } ago
rollouts-paused-by = paused ({ $scope }) by { $by }: { $reason }
rollouts-batches = BATCHES
rollouts-batch-paused = (paused)
rollouts-clusters = CLUSTERS
rollouts-halted-on = halted on
rollouts-cell-pending = pending
rollouts-cell-staged = staged
rollouts-cell-applied = applied
rollouts-cell-verified = verified
rollouts-cell-failed = failed
rollouts-cell-unknown = unknown
rollouts-gates = GATES
rollouts-coverage = COVERAGE
rollouts-coverage-so-far = { $reached } of { $total } version/hardware combinations (as the ledger declares them) verified so far
rollouts-coverage-not-shown = not shown: the plan from today's ledger differs from the run's batches

## Maintenance swimlanes

maint-none = No maintenance runs in the journal.
maint-how = Start one from a cluster's drill-down: mark nodes with { $mark }, then { $start }.
maint-no-journal = No journal connected: maintenance runs cannot be shown.
maint-col-node = NODE
maint-col-step-status = STEP · STATUS
maint-stuck-count = { $n } STUCK
maint-lane-by = { $nodes } · by { $by } · { $ago } ago
maint-paused-by = paused ({ $scope }) by { $by }: { $reason }
maint-selected-node = selected node
maint-in-step = in { $run } · step { $step }:
maint-for = for { $age } (set by { $by })
maint-not-started = in { $run } · not started
maint-last-try = last try, { $ago } ago: { $why }
maint-waits = waits, { $age } so far: { $why }
maint-stuck-because = stuck because:
maint-hands-off = hands it to a person
maint-takes-over = takes it over
maint-nothing-forced = nothing is forced
maint-owner = owner: { $to }{ $since }
maint-owner-since = by { $by } { $ago } ago
maint-note = note:
maint-returns = returns it: done, retry or abort
maint-failed = failed: { $error }
maint-open-intents = { $n } side effect(s) in flight without a recorded outcome
maint-card-running = running { $age }
