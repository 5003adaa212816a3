# The shift handover: the console's `H` walkthrough, `fleetdeck handover` (table and
# Markdown). The English sentences are written by `src/model/handover/` itself (and
# journaled, and in JSON); these messages say the same in other languages, and the
# English ones here are kept word for word the same as the model's.

## Sections

handover-section-paused = Paused automation
handover-section-awaiting = Batches awaiting approval
handover-section-stuck = Stuck steps
handover-section-handed-off = Handed-off steps
handover-section-halted = Halted rollouts
handover-section-left = Left mid-change
handover-section-clusters = Clusters Unreachable / IdentityMismatch / UNKNOWN
handover-section-clusters-short = Untrusted clusters
handover-section-not-whole = Clusters with nodes down or budgets below minimum
handover-section-not-whole-short = Clusters not whole
handover-section-findings = Findings new or worse this shift
handover-section-findings-short = New or worse findings
handover-section-exceptions = Exceptions expiring soon
handover-section-notes = Open notes

## Items: titles

handover-pause-title = { $scope } paused: { $why }
handover-awaiting-title = { $run }: batch { $batch } awaits approval ({ $count ->
    [one] { $count } cluster
   *[other] { $count } clusters
})
handover-stuck-title = { $item } { $step } stuck in { $run }
# $how: handed or taken.
handover-handed-title = { $item } { $step } in { $run } is with { $to } ({ $how ->
    [taken] taken over
   *[handed] handed off
})
handover-halted-title = { $run } halted: { $why }
# $how: cordoned or mid-step.
handover-left-title = { $item } in { $run } left { $how ->
    [cordoned] cordoned
   *[mid-step] mid-step
}
handover-cluster-is = { $cluster } is { $status }
handover-cluster-fact = { $cluster }: { $fact }
handover-exception-expires-title = { $cluster }: exception "{ $what }" expires in { $days } days ({ $expires })
handover-exception-expired-title = { $cluster }: exception "{ $what }" expired { $days } days ago ({ $expires })

## Items: details

handover-why = why: { $why }
handover-by = by: { $by }
handover-pause-by-guard = by: { $by } (mass-failure guard: only a person may resume)
handover-since-ago = since: { $since } ({ $ago } ago)
handover-since = since { $since }
handover-rollout = rollout: { $title }
handover-clusters = clusters: { $clusters }
handover-cluster = cluster: { $cluster }
handover-started-by = started by: { $by }
handover-stuck-for = stuck for { $ago } (since { $since })
handover-owner = owner: { $owner }
handover-note = note: { $note }
handover-reason = reason: { $reason }
handover-exit-criteria = exit criteria: { $criteria }
handover-handed-by = { $how ->
    [taken] taken over
   *[handed] handed off
} by { $by } { $ago } ago ({ $at })
handover-halted-resume = resume or abort it: nothing resumes on its own
handover-status = status: { $status }
handover-last-error = last error: { $error }
handover-identity-refused = every action on it is refused until the ledger pin is checked
handover-credentials-fix = nothing is read from it until its credential works: log in (:login in the console) or fix the kubeconfig user
handover-degraded = data Degraded: { $why }
handover-degraded-unread = data Degraded: part of it could not be read
handover-nodes-not-ready = { $down } of { $total } nodes not ready
handover-budget-below = PDB { $budget } has { $healthy }, needs { $needs } healthy: below its minimum
handover-finding-new = new this shift, { $severity }
handover-finding-worse = worse this shift: { $severity }
handover-finding-worse-since = worse this shift: { $severity } since { $since }
handover-finding-clear = to clear it: { $how }
handover-at-ago = at: { $at } ({ $ago } ago)
handover-about = about: { $about }
handover-about-run = run { $run }
handover-about-node = node { $node }
handover-about-cluster = cluster { $cluster }
handover-about-fleet = the fleet
handover-check-current = current: read from the journal's or the cluster's state now
handover-check-confirmed = checked: { $how }
handover-check-not-checked = not checked: { $why }

## Acknowledgements

handover-ack-unchanged = unchanged since
handover-ack-worse = worse since: { $how }
handover-ack-then-now = then { $then }; now { $now }
handover-ack-not-recorded = how it stood then was not recorded

## The walkthrough (console, `H`)

handover-walk-title = shift handover, last { $shift } · item { $item } of { $of } · ←/→ step{ $ack } · esc closes
handover-walk-title-short = handover, last { $shift } · { $item } of { $of } · ←/→{ $ack } · esc
handover-walk-title-tiny = handover · { $item } of { $of }
# Appended to the titles above (with its leading " · " in the code).
handover-walk-ack-key = a acknowledge
handover-walk-no-journal = Journal not connected: nothing can be handed over from it.
handover-walk-no-journal-why = Pauses, batches awaiting approval, stuck or handed-off steps and notes are read from the journal; check the log and the journal file.
handover-walk-nothing = Nothing to hand over.
handover-walk-nothing-why = No pause, no batch awaiting approval, no stuck or handed-off step, no halted rollout, no Unreachable / IdentityMismatch / UNKNOWN cluster, none with nodes down or a budget below its minimum, no exception expiring within 14 days, no note in the last { $shift }.
handover-walk-not-checked-heading = Not checked:
handover-walk-not-acked = not acknowledged this shift
handover-walk-not-acked-key = not acknowledged this shift · a acknowledges with a note (journaled)
handover-walk-reopened = re-opened: worse since it was acknowledged · a acknowledges it as it stands now
# The word before "by WHO at WHEN: NOTE" (its trailing space is in the code).
handover-walk-acked = acknowledged
handover-walk-was-acked = was acknowledged
handover-walk-acked-by = by { $by } at { $at }: { $note }
handover-walk-not-checked = not checked in this handover:

## `fleetdeck handover`: the table and the Markdown report

handover-col-section = SECTION
handover-col-item = ITEM
handover-col-details = DETAILS
handover-col-acknowledged = ACKNOWLEDGED
handover-table-nothing = Nothing to hand over from what could be read.
handover-table-ack = { $by } { $at }: { $note } ({ $change })
handover-table-ack-reopened = re-opened, was { $by } { $at }: { $note } ({ $change })
handover-table-settled = settled since: { $title } — { $how }
handover-table-not-checked = not checked: { $why }
handover-md-title = Shift handover
handover-md-span = From { $from } to { $to } · { $count } item(s)
handover-md-not-checked = Not checked
handover-md-ack = acknowledged by { $by } at { $at }: { $note } ({ $change })
handover-md-ack-reopened = re-opened, was acknowledged by { $by } at { $at }: { $note } ({ $change })
handover-md-nothing = Nothing to hand over from what could be read: no pause, no waiting batch, no stuck or handed-off step, no halted rollout, no troubled cluster, no expiring exception, no note.
handover-md-settled = Settled since

## Not checked (what could not be read, and why)

handover-nc-journal = journal not read ({ $why }): pauses, batches awaiting approval, stuck and handed-off steps, halted rollouts, what runs left mid-change, notes and acknowledgements are unknown
handover-nc-ledger-all = ledger not read ({ $why }): clusters Unreachable, IdentityMismatch, UNKNOWN or not whole, findings new or worse this shift and expiring exceptions are unknown, and what the journal says was left behind was not checked against the clusters
handover-nc-fleet = cluster statuses not checked ({ $why }): clusters Unreachable, IdentityMismatch, UNKNOWN or not whole are unknown, and what the journal says was left behind was not checked against the clusters
handover-nc-connecting = still connecting, status unknown: { $clusters }
handover-nc-ledger = ledger not read ({ $why }): expiring exceptions are unknown
handover-nc-findings = findings not judged ({ $why }): findings new or worse this shift are unknown
handover-nc-undated = { $count } findings whose start is not known ({ $rules }) may be new or old: `fleetdeck findings` and the Findings screen list them
handover-nc-kubeconfig = kubeconfig not read ({ $why }): no cluster can be reached

## Lists (what a note is about): two parts, folded for more

handover-list-pair = { $a }, { $b }

## What was left mid-change: the lines of an item

handover-left-aborted-by = aborted by { $by } { $ago } ago ({ $when }): { $note }
handover-left-step-set-by = { $step } { $status }, set by { $by } { $ago } ago ({ $when })
handover-left-stood-in-hands = stood at { $step }, in { $to }'s hands (since { $when }): the run is over, so a return is refused and nothing follows
handover-left-stood-at = stood at { $step }: { $status }
handover-left-run = run: { $title } ({ $status })
handover-left-cordoned-never-uncordoned = fleetdeck cordoned the node and never uncordoned it: check it, then uncordon it (kubectl uncordon) once it is fit, or finish it in a new maintenance run
handover-left-not-cordoned = fleetdeck had not cordoned it; pods may have been evicted
handover-left-cluster = cluster: { $cluster }
handover-release-left-title = { $run } aborted with its release on { $on } of { $total } clusters{ $inFlight ->
    [0] {""}
   *[other] , { $inFlight } more in flight
}
handover-release-rollout = rollout: { $title }
handover-release-on = release on: { $clusters }
handover-release-in-flight = apply in flight on: { $clusters } (outcome pending: check what these clusters run)
handover-release-since = since: { $how }
handover-release-others-unchanged = the other clusters run what they ran before; a rollback is a rollout of the previous release
handover-finding-title = { $cluster }: { $summary }
