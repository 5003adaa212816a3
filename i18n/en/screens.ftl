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
