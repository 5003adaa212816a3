# The console's chrome: header, pause banner, crumbs, footer hints, help, palette.
# Leading and trailing spaces are the code's, never the message's.

## Header

header-clusters = { $n } clusters
header-no-data = no data
header-nodes-ready = nodes { $ready }/{ $total } ready
header-not-counted = ({ $clusters } not counted)
header-gpus-free = GPUs { $free }/{ $total } free
header-readonly = READ-ONLY
header-automation-running = AUTOMATION RUNNING
header-automation-paused-why = AUTOMATION PAUSED ({ $reason }, by { $by })
header-automation-paused-by = AUTOMATION PAUSED by { $by }
header-automation-paused = AUTOMATION PAUSED
header-paused = PAUSED
header-journal-unreachable-long = JOURNAL UNREACHABLE: last known state, actions refused
header-journal-unreachable = JOURNAL UNREACHABLE
header-automation-unknown-long = AUTOMATION UNKNOWN (no engine connected)
header-automation-unknown = AUTOMATION UNKNOWN
header-awaiting-approval = { $n } awaiting approval
header-to-approve = { $n } to approve
header-halted = { $n } halted
header-stuck = { $n } stuck
header-ledger-expired = LEDGER: { $exceptions } EXPIRED
header-team-alone = alone
header-team-others = { $count ->
    [one] 1 other
   *[other] { $count } others
}
banner-all-paused = ⏸ ALL AUTOMATION PAUSED by { $by } since { $since } ({ $ago } ago){ $key }: { $reason } — no new step starts anywhere
banner-resumes = resumes
too-small = terminal too small
too-small-size = { $width }×{ $height }, needs { $min_width }×{ $min_height }
too-small-quit = q quits

## Crumbs on the body's border

crumb-ledger = ledger
crumb-cluster = cluster { $id }
crumb-node = node { $node }
crumb-capacity = capacity
crumb-capacity-cluster = capacity { $id }
crumb-domain = domain { $domain }
crumb-rollouts = rollouts
crumb-maintenance = maintenance
crumb-timeline = timeline
crumb-findings = findings

## Footer hints

hint-open = open
hint-filter = filter
hint-palette = cmd
hint-sort = sort
hint-reverse = reverse
hint-gitops-sync = suspend/resume sync
hint-by-region = by region
hint-mark = mark
hint-capacity = capacity
hint-what-if = what-if
hint-batch-what-if = batch what-if
hint-lose-cluster = lose cluster
hint-clear-what-if = clear what-if
hint-back = back
hint-panel = panel
hint-approve = approve
hint-pause-run = pause run
hint-resume-run = resume run
hint-freeze-cluster = freeze cluster
hint-abort = abort
hint-hand-off = hand off
hint-take-over = take over
hint-return = return
hint-maintain = maintain
hint-follow = follow
hint-pause-all = pause all
hint-resume-all = resume all
hint-handover = handover
hint-help = help
hint-quit = quit
filter-help-long = enter keep · esc clear · key=value · !exclude
filter-help = enter keep · esc clear
filter-shown = filter: { $text }

## Help overlay

help-title = help · esc closes · ↑↓ scroll
help-more-below = … { $n } more below (↓)
help-context-global = GLOBAL
help-context-list = LIST
help-context-ledger = LEDGER
help-context-cluster = CLUSTER
help-context-node = NODE
help-context-capacity = CAPACITY
help-context-rollouts = ROLLOUTS
help-context-maintenance = MAINTENANCE
help-context-timeline = TIMELINE
help-context-findings = FINDINGS
help-fate = IF DRAINED, MOVES
help-fate-yes = yes
help-fate-yes-means = evicted and re-created on another node with room
help-fate-blocked = blocked by
help-fate-blocked-means = the PDB allows this pod no eviction now: a drain waits on it
help-fate-within = only within
help-fate-within-means = its volume holds it in a domain; it moves there
help-fate-no = no: …
help-fate-no-means = no other node takes it (the same re-placement as w)
help-fate-stays = stays
help-fate-stays-means = a DaemonSet or static pod: it belongs to the node
help-fate-terminating = terminating
help-fate-terminating-means = already being deleted
help-fate-bare = bare pod
help-fate-bare-means = no controller: a drain deletes it for good

## Palette

palette-rollouts = rollout runs: batches, clusters, gates
palette-maintenance = maintenance runs as swimlanes
palette-timeline = journal events, filterable, live tail
palette-findings = fleet findings: certificates, webhooks, health, backups, GitOps, windows, burn
palette-handover = shift handover walkthrough (handover 12h: a longer shift; default 8h)
palette-pause = pause (or resume) all automation
palette-start = start FILE: a maintenance from a file (plan shown first)
palette-ledger = every cluster
palette-capacity = fleet capacity, per dimension
palette-help = keys of the active keymap
palette-quit = leave fleetdeck
palette-lang = lang en | zh-CN: the language of the console
palette-lang-to = switch the console to { $name }
palette-node-in = in { $cluster }
palette-enter-runs = enter runs :{ $input }
palette-readonly = read-only mode: :{ $word } would write to the journal (drop --readonly to act)
palette-nothing-matches = nothing matches
palette-title = command · enter runs · esc closes
palette-no-match = no match
palette-type-start = type :start FILE to start the maintenance a file describes
palette-type-lang = type :lang en or :lang zh-CN (now { $lang })
palette-unknown-lang = unknown language { $given }: supported are { $supported }
palette-lang-set = language: English
