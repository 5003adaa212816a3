# Sentences the model writes that people read: why an action is refused, gate lines,
# why a step is stuck, why a rollout halted. The journal keeps the English; these show it
# in the reader's language.

## Why an operator command is refused (`model/rollout/approval.rs`, `model/run/refusal.rs`)

reason-author-cannot-approve = { $approver } started this rollout and cannot approve its batches (approvals.distinctApprover is true): ask another person
reason-only-a-person = { $actor } is automation: only a person may { $what }
reason-what-approve-batch = approve a batch
reason-what-abort-rollout = abort a rollout
reason-what-resume-rollout = resume a rollout
reason-what-pause = pause
reason-what-abort = abort
reason-what-approve = approve
reason-what-resume = resume
reason-not-awaiting-approval = batch { $batch } is not awaiting approval (it is { $phase })
reason-clusters-cannot-act = batch { $number } cannot be approved now: { $clusters } cannot take actions; pause or abort the run, or wait until every cluster of the batch can take actions (Synced or Degraded, with the identity the ledger pins confirmed) and approve then
reason-blocked-cluster = { $cluster } ({ $reason })
reason-not-now = cannot { $what }: the run is { $status }
reason-no-run = no run { $run } in the journal
reason-no-item = run { $run } has no node { $item }
reason-nothing-to-approve = no batch of { $run } is awaiting approval
reason-empty = { $what } must not be empty
reason-field-reason = the reason
reason-field-assignee = the assignee
reason-field-note = the note
reason-not-in-hand = node { $item } of { $run } is not in a person's hands: hand it off or take it over first, then return it
reason-run-over = { $run } is already { $status }: { $what }
reason-over-nothing-to-abort = there is nothing left to abort
reason-over-aborted-nodes = nothing follows on its nodes any more; a node it left stays as it is (uncordon it by hand once it is fit)
reason-over-finished = every node of it finished; nothing follows

## Why a rollout halted (`model/rollout/gates.rs`, `HaltReason`)

reason-halt-failed = { $failed } of { $finished } finished cluster(s) failed, stop limit { $limit }: { $clusters }
reason-halt-limit-percent = { $percent }% of finished clusters
reason-halt-burn = SLO burn rate { $burn }x on { $cluster } exceeds the maximum { $max }x (objective { $objective }% over { $window })
reason-halt-burn-both = SLO burn rate on { $cluster } exceeds both windows' maxima: { $burn }x over { $window } (maximum { $max }x) and { $shortBurn }x over { $shortWindow } (maximum { $shortMax }x) (objective { $objective }%)
reason-halt-metrics-unknown = metrics unknown for { $n } cluster(s) ({ $clusters }); unknownMetrics is stop
reason-halt-outcome-unknown = outcome unknown on { $cluster }: { $why }

## The rollouts screen's gate lines and batch phases (`tui/screens/rollouts.rs`)

gate-stop-at = stop at { $limit }
gate-limit-count = { $n } failed cluster(s)
gate-limit-percent = { $percent }% of the finished clusters failed
gate-burn = stop when SLO burn rate exceeds { $max }× (objective { $objective }%, window { $window })
gate-no-burn = no SLO burn-rate gate
gate-unknown-means = a metric that is UNKNOWN means: { $action }
gate-apply-failed = { $cluster }: apply failed: { $why }
gate-verify-failed = { $cluster }: verification failed: { $reason }
gate-verify-unknown = { $cluster }: verification UNKNOWN: { $why }
gate-passed = gate after batch { $batch } passed
gate-none-yet = no gate evaluated yet
gate-halt-burn = batch { $batch }: burn rate { $burn }× on { $cluster } is over the threshold { $max }×
gate-halt-metrics = batch { $batch }: metrics UNKNOWN on { $clusters }
gate-halt-other = batch { $batch }: { $why }
batch-soaking = soaking, { $left } left
batch-soaked = soaked, gate due

## Why a maintenance may not start (`model/maintenance/planner.rs`, `PlanRefusal`)

reason-plan-missing = nodes not found on the cluster: { $nodes }
reason-plan-nothing-selected = no node to maintain: { $selection } selects nothing
reason-plan-nothing-plannable = no node can be planned within the budgets: { $why }

## Why a cluster cannot take actions now (`model/live`)

reason-cluster-stale = nothing recent is known about it: cluster is { $status }
reason-cluster-not-in-view = not in the fleet view
reason-identity-not-pinned = the ledger pins no identity
reason-identity-mismatch = identity mismatch: { $why }
reason-identity-not-confirmed = identity not confirmed yet

## A maintenance plan's budgets and warnings (`model/maintenance/planner.rs`)

plan-limit-max = maxUnavailable { $max } reached
plan-limit-domain = perFailureDomain { $per } reached in { $domain }
plan-limit-label = perLabel { $label }={ $value } maxUnavailable { $max } reached
plan-unplanned-by-down = { $why } by nodes already unavailable
plan-warning-down = { $n } node(s) already unavailable count against every batch: { $nodes }
plan-warning-unlabelled = no { $label } label on { $nodes }: they share one failure domain for the budget

## A job context the ledger names (`jobContexts`) that cannot be used
job-context-other-server = it points at { $server }, not at the API server the cluster's own context reaches ({ $expected }): the job would act on a cluster nothing vouches for
