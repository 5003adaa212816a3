# Operator dialogs: their fields, hints, confirmations and refusals, and the messages the
# console shows after an action. Leading and trailing spaces are added by the code.

## The dialog's frame

dialog-field-reason = reason
dialog-field-note = note
dialog-field-assignee = assignee
dialog-field-why = why
dialog-field-type-name = type the name to confirm
dialog-field-name = name
dialog-field-drain-deadline = drain deadline (stuck after)
dialog-outcome = outcome
dialog-outcome-done = d done
dialog-outcome-retry = r retry
dialog-outcome-abort = a abort
dialog-this-will = This will:
dialog-hint-edit-multiline = enter continue · tab next field · alt-enter new line · esc cancel
dialog-hint-edit = enter continue · tab next field · esc cancel
dialog-hint-edit-short = enter · tab · esc
dialog-hint-quit = q or enter quits · esc stays
dialog-hint-quit-short = q quits · esc stays
dialog-hint-confirm = enter confirms · esc goes back · nothing is sent before enter
dialog-hint-confirm-medium = enter confirms · esc goes back
dialog-hint-confirm-short = enter · esc
dialog-hint-enlarge = enlarge the terminal to see all and confirm · esc goes back
dialog-hint-enlarge-medium = enlarge the terminal to confirm · esc back
dialog-hint-enlarge-short = enlarge the terminal to confirm
dialog-hint-too-small = too small to confirm
dialog-hint-refused = any key closes · nothing was sent
dialog-hint-refused-short = any key closes

## Why a form is not complete

dialog-empty = { $field } must not be empty
dialog-choose-outcome = choose an outcome: d done, r retry or a abort
dialog-type-exactly = type { $name } exactly to confirm the abort
dialog-nothing-to-send = nothing can be sent
dialog-bad-deadline = drain deadline { $deadline }: { $error }
dialog-bad-name = name { $name } { $why }

## What will happen

will-pause = pause { $scope }: no new step starts there until someone resumes; steps in flight finish and nothing is undone (reason: { $reason })
will-resume = resume { $scope }: automation starts new steps there again{ $noted }
will-hand-off = hand { $item } of { $run } to { $to }: the engine leaves it alone until it is returned{ $noted }
will-take-over = take over { $item } of { $run }: it becomes yours and the engine leaves it alone until you return it{ $noted }
will-return-done = return { $item } of { $run } ({ $outcome }): the step counts as done and the engine goes on{ $noted }
will-return-retry = return { $item } of { $run } ({ $outcome }): the engine retries the step with a fresh deadline{ $noted }
will-return-abort = return { $item } of { $run } ({ $outcome }): the node stops here; nothing is undone{ $noted }
will-abort = abort { $run }: no new step of it ever starts; nothing already done is undone{ $noted }
will-approve-batch = approve batch { $batch } of { $run }: its clusters start, unless a pause holds the run{ $noted }
will-approve-waiting = approve the waiting batch of { $run }: its clusters start, unless a pause holds the run{ $noted }
will-note = journal the note: { $text }
will-acknowledge = acknowledge "{ $title }"{ $stands }: it stays acknowledged for everyone until it gets worse or another problem appears there{ $noted }
will-acknowledge-stands = as it stands ({ $extent })
will-noted = (note: { $note })
will-start-maintenance = journal maintenance { $name } on { $cluster } for { $nodes } ({ $known } nodes known); the executor then cordons, drains (through the Eviction API, respecting PDBs; stuck after { $deadline }) and waits for a person at Maintain, node by node within the budgets
will-nodes-matching = nodes matching { $selector }
will-refusal = journal the refusal for the audit trail
will-quit = quit
will-gitops = { $verb } the sync of { $object } on { $cluster } (journaled before and after; the cluster's identity is checked first), noting your name and reason on the object
will-quit-executor = stop this console's executor: a step in flight stays where it is (a node may stay cordoned), nothing is undone; `fleetdeck run` or this console started again picks the runs up

## Pause scopes, as dialogs name them

scope-fleet = fleet
scope-cluster = cluster { $cluster }
scope-run = run { $run }
scope-domain = failure domain { $domain } of cluster { $cluster }

## After a key

msg-sent = sent: { $what } (waiting for the journal)
msg-cancelled = cancelled: nothing was sent
msg-not-quit = not quit: the executor goes on
msg-too-small-to-send = not sent: the terminal is too small to show what this will do; enlarge it
msg-done = ✓ { $text }
msg-refused = ✗ refused: { $text }
msg-dropped-keys = { $dropped } key(s) typed ahead of the confirmation were dropped: read it, then confirm
msg-readonly = read-only mode (--readonly): "{ $what }" would write to the journal and is refused; restart without --readonly to act
msg-no-run = no run selected
msg-no-rollout = no rollout selected
msg-no-node = no node selected
msg-none-awaiting = no batch of { $run } is awaiting approval
msg-already-final = { $run } is already { $status }
msg-no-single-cluster = { $run } works on no single cluster
msg-not-handed = { $item } is not in a person's hands: hand it off (h) or take it over (t) first
msg-takes-no-change = { $id } takes no change (only a Synced or Degraded cluster whose identity is confirmed does): { $why }
msg-no-data = no data for { $id } yet
msg-mark-with = mark nodes with { $key } first
msg-mark-first = mark nodes first

## Approve

approve-title = approve batch { $batch } of { $run }
approve-started = { $run } · { $title } · started by { $by }
approve-batch = batch { $batch } of { $batches }: { $n } cluster(s)
approve-budgets = budgets: { $max } in flight at once{ $region }{ $domain }
approve-per-region = , { $n } per region
approve-per-domain = , { $n } per failure domain
approve-gate = gate: { $gate }
approve-paused = the run is paused ({ $scope }: { $reason }, by { $by }): the batch starts once it is resumed
refused = refused: { $why }

## Pause and resume

pause-resume-halted-title = resume halted { $run }
pause-halted = { $run } halted: { $why }
pause-halted-resuming = Resuming lets the executor go on; the stop conditions are evaluated again.
pause-resume-title = resume { $scope }
pause-paused-by = Paused by { $by } since { $since }: { $reason }
pause-may-start = Run { $run } ({ $title }) may start new steps again unless another pause holds it.
pause-title = pause { $scope }
pause-run-is = Run { $run } ({ $title }) is { $status }.
pause-no-new-step = No new step starts under this pause; steps in flight finish; nothing is undone.
pause-all-resume-title = resume all automation
pause-all-paused-by = All automation is paused by { $by } since { $since }: { $reason }
pause-all-frees = Resuming lets { $n } unfinished run(s) start new steps again.
pause-all-held = Other pauses (per run, cluster or failure domain) stay in force: they still hold { $n } run(s).
pause-all-title = pause all automation
pause-all-nothing-starts = No run anywhere in the fleet starts a new step until someone resumes.
pause-all-in-flight = Steps already in flight finish and are recorded; nothing is undone.
pause-all-affected = { $n } unfinished run(s) are affected.

## Abort

abort-title = abort { $run }
abort-started = { $title } · { $status } · started by { $by }
abort-no-new-step = No new step of this run will ever start. Nothing already done is undone.
abort-rollback = A rollback is a separate rollout of the previous release.
abort-cordoned = A node it cordoned stays cordoned until someone uncordons it (kubectl uncordon).
abort-type = Type { $name } to confirm.

## Node cards: hand off, take over, return

card-in = { $item } in { $run } ({ $title })
card-step = step { $step }: { $status }
card-owner = owner: { $to } · note: { $note }
hand-off-title = hand off { $item }
hand-off-leaves = The engine leaves the node alone until the assignee returns it.
take-over-title = take over { $item }
take-over-becomes = It becomes { $actor }'s; the engine leaves it alone until it is returned.
return-title = return { $item }
return-outcomes = outcome (choose one): d done (the engine goes on) · r retry the step · a abort the node
return-paused = the run is paused ({ $scope }: { $reason }): done or retry takes effect once it is resumed

## Acknowledge

acknowledge-title = acknowledge
acknowledge-journaled = Journaled with your name for everyone; it holds until the problem gets worse or another one appears there.

## Quit

quit-title = quit fleetdeck?
quit-driving = This console's executor is driving { $n } run(s):

## Start a maintenance

start-from-title = start maintenance from { $name }
start-cannot-read = cannot read { $name }: { $error }
start-has-errors = { $name } has errors: nothing was started
start-title = start maintenance on { $id }
start-maintenance-on = maintenance { $name } on { $id }
start-did-you-mean = (did you mean { $close }?)
start-no-cluster = the ledger has no cluster { $id }{ $hint }: nothing was sent
start-no-data = no data for it yet
start-refused-cluster = refused: only a Synced or Degraded cluster whose identity is confirmed allows actions; { $id }: { $why }
start-nodes = { $n } node(s) on { $id }, at most { $max } unavailable at once
start-steps = each: Precheck → Cordon → Drain (Eviction API, PDBs respected) → Maintain → VerifyNode → VerifyWorkloads → Uncordon
start-batch = batch { $batch }: { $nodes }
start-not-planned = not planned: { $node }: { $why }
start-not-found = not found on { $id }: { $node }
start-warning = warning: { $warning }
start-ledger = LEDGER: { $exception }: confirming acknowledges it
start-refused-plan = refused: { $why }; nothing would run
start-drain-waits = warning: the drain will wait: PDB { $namespace }/{ $name } ({ $pods } on these nodes; has { $healthy } healthy, needs { $needs }) allows no eviction now; the Drain step is stuck until it does, then waits for a person (nothing is forced)

## A return's outcome, as the confirmation names it

outcome-name-done = Done
outcome-name-retry = Retry
outcome-name-abort = Abort

## A GitOps object's sync (findings)

gitops-title = { $verb } the sync of { $object }
gitops-verb-suspend = suspend
gitops-verb-resume = resume
gitops-cluster = cluster { $cluster }
gitops-argo-suspend = its automated sync policy is kept aside (an annotation) and removed: Argo CD stops syncing it until resumed
gitops-flux-suspend = spec.suspend is set: Flux stops reconciling it until resumed
gitops-resume = its sync is let go again (Argo CD's automated policy put back; Flux's spec.suspend false)
gitops-refused = { $cluster } may not be changed: { $why }
gitops-not-about = { $rule } is not about a GitOps object: { $key } suspends or resumes the sync of an Application, Kustomization or HelmRelease

## What the journal answered after a command was recorded

recorded = { $verb } recorded by { $actor } (journal event { $seq }){ $waits }
recorded-waits-for-resume = ; the run is paused ({ $scope }: { $reason }, by { $by }): nothing goes on until it is resumed
verb-pause = pause
verb-resume = resume
verb-handoff = handoff
verb-takeover = takeover
verb-return = return
verb-abort = abort
verb-approve = approve
verb-note = note
verb-acknowledge = acknowledge
console-closing = console closing
console-started-run = started run { $run } ({ $batches ->
    [one] 1 batch
   *[other] { $batches } batches
}) by { $actor }; the executor picks it up
console-no-cluster = this console reaches no cluster
console-not-in-ledger = { $cluster } is not in the ledger
console-gitops-refused = { $cluster }: refusing to { $verb } the sync: { $error }
gitops-sync-changed = { $verb }ed the sync of { $target } on { $cluster } (journal event { $seq }); { $said }
