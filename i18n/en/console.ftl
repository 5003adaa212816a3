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
header-journal-unreadable-rows = JOURNAL: { $events } UNREADABLE, skipped
header-journal-went-back = JOURNAL WENT BACK: { $events } read are gone (from #{ $seq })
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
palette-login = login CONTEXT: run the context's credential plugin on this terminal to log in
palette-type-login = type :login CONTEXT (or press i on a cluster) to log in with its credential plugin
palette-login-to = log in for { $context } with its credential plugin

## Messages of the console after a key

msg-ack-handover-item = Acknowledge a handover item
msg-pod-on-no-node = this pod runs on no node yet
msg-journal-unreachable-refused = the journal database cannot be reached: "{ $what }" cannot be recorded and is refused; the screen shows the last known state until it is back
msg-role-needed = you are { $login } ({ $roles }) on this journal: "{ $what }" needs { $role }; an admin can grant it (GRANT { $role } TO "{ $login }")
msg-no-filter = this screen has no filter
msg-already-here = already on the { $place }
msg-at-the-ledger = at the ledger: q quits
msg-history-no-later = no later place in history
msg-history-no-earlier = no earlier place in history
msg-config-warning = warning: { $warning }
msg-config-warnings = warning: { $warning } (+{ $more } more in the log)
msg-nothing-to-move = nothing to move through here
msg-only-row = the only row here is selected
msg-first-row = already on the first row
msg-last-row = already on the last row
msg-facts-failed = ✗ the fleet's facts could not be worked out, the screen may stop updating (see the log): { $failure }
msg-background-failed = ✗ a background task failed, its data may stop updating (see the log): { $failure }
msg-no-journal-nothing-recorded = no journal is connected to this console: nothing was recorded
msg-paste-ignored = paste ignored: no text field is being edited
msg-no-journal-see-log = no journal connected: see the log
login-not-a-plugin = { $context } does not log in through a plugin: its credential is used as the kubeconfig gives it
login-done = Logged in for { $context } with { $program }: { $clusters ->
    [one] 1 cluster uses this credential and reconnects now
   *[other] { $clusters } clusters use this credential and reconnect now
}
login-failed = The login for { $context } with { $program } failed: { $reason }
login-no-port = this console cannot log in (no credential layer behind it)
login-unknown-context = no cluster uses the context { $context }; :login takes a context the ledger names (or a cluster id)
login-banner = fleetdeck: logging in for { $context }: the credential plugin has this terminal now, and the console comes back when it is done (Ctrl-C stops the plugin).
login-banner-done = fleetdeck: the plugin is done; back to the console.

## What a key says where it does nothing

silent-screen-ledger = ledger
silent-screen-cluster = cluster page
silent-screen-node = node page
silent-screen-capacity = capacity screen
silent-screen-rollouts = rollouts screen
silent-screen-maintenance = maintenance screen
silent-screen-timeline = timeline
silent-screen-findings = findings screen
silent-screen-console = console
silent-key-goes-there = { $key } goes there
silent-open-cluster = { $key } on a cluster opens it
silent-open-node = { $key } on a node of a cluster page opens it
silent-how = {" "}({ $how })
silent-help-lists = {" "}({ $key } lists the keys here)
silent-elsewhere = { $chord } does nothing on the { $here }: on the { $there } it is "{ $desc }"{ $how }
silent-nowhere = { $chord } is not a key on the { $here }{ $help }
silent-one-panel = { $key }the { $here } has one panel
silent-nothing-to-mark = { $key }nothing to mark on the { $here }: marks are for the ledger's clusters and a cluster page's nodes
silent-unused = { $key }"{ $desc }" does nothing on the { $here }

## Warnings about the keymap and theme files (after `FILE:LINE: `)

cfg-toml-error = { $error }; { $fallback }
cfg-whole-file-ignored = the whole file is ignored
cfg-cannot-read = cannot read the file ({ $error }); ignored
cfg-binding-ignored = { $error }; binding ignored
cfg-unknown-action = unknown action { $name }; binding ignored
cfg-key-twice = key { $key } is bound twice in [{ $section }] (lines { $first } and { $line }); the later wins
cfg-no-keymap = no built-in keymap named { $name }; using default
cfg-keymap-not-found = keymap file not found; using default
cfg-hides-global = key { $key } in [{ $section }] ({ $action }) hides the global binding { $global }
cfg-no-theme = no theme named { $name }; using dark
cfg-theme-not-found = theme file not found; using dark
cfg-unknown-slot = unknown slot { $name }; ignored
cfg-slot-not-a-colour = slot { $name }: { $value } is not a colour (#rrggbb, a name or 0-255); left unset
cfg-env-not-a-colour = env { $env }: { $value } is not a colour; ignored
cfg-unknown-key = unknown key { $key }

## The ledger's CHANGE column: what is in flight on a cluster

attn-applying = applying
attn-verifying = verifying
attn-halted-here = HALTED here
attn-halted-short = HALTED
attn-halted = halted
attn-stuck = STUCK { $age }
attn-failed = FAILED
attn-frozen = frozen
attn-frozen-because = frozen: { $reason }
