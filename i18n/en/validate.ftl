# Problems found in fleetdeck's files (`ledger validate`, and every file read the same
# way). The English sentences are written by `src/yaml/` and `src/model/ledger/` (and are
# in JSON output); these say the same in other languages. The `FILE:LINE:COL: ` prefix
# is never part of a message. Field names, values and kinds are shown as written.

validate-warning = warning
validate-summary-valid = { $file }: valid, { $clusters } clusters, { $warnings } warning(s)
validate-summary-expired = { $file }: { $errors } error(s) (expired exceptions: still read by every command, but new changes to those clusters need --acknowledge-expired-exceptions), { $clusters } clusters, { $warnings } warning(s)
validate-summary-errors = { $file }: { $errors } error(s)
validate-summary-invalid = { $file }: { $errors } error(s), { $warnings } warning(s)

## What a value looked like

validate-shape-nothing = nothing
validate-shape-scalar = a scalar
validate-shape-list = a list
validate-shape-mapping = a mapping

## Shapes and fields

validate-file-empty = the file is empty
validate-duplicate-key = duplicate key "{ $key }" (first defined at { $first })
validate-must-be-mapping = { $what } must be a mapping, found { $found }
validate-missing-field = { $what } is missing required field `{ $key }`
validate-other-kind = kind must be "{ $want }", found "{ $found }"; nothing else in the file was checked
validate-must-be-text = { $key } must be "{ $want }", found "{ $found }"
validate-empty = field `{ $key }` must not be empty
validate-unknown-field = unknown field `{ $key }` in { $what }
validate-unknown-field-near = unknown field `{ $key }` in { $what } (did you mean `{ $near }`?)
validate-must-be-string = field `{ $field }` must be a string, found { $found }
validate-must-be-list = field `{ $field }` must be a list, found { $found }
validate-field-must-be-mapping = field `{ $field }` must be a mapping, found { $found }

## Scalars

validate-must-be-bool = field `{ $field }` must be true or false, found "{ $found }"
validate-must-be-whole = field `{ $field }` must be a whole number, found "{ $found }"
validate-at-least-one = field `{ $field }` must be at least 1
validate-must-be-number = field `{ $field }` must be a number, found "{ $found }"
validate-must-be-percent = field `{ $field }` must be a percentage above 0 and at most 100, found "{ $found }"
validate-one-of = field `{ $field }` must be one of { $names }, found "{ $found }"
validate-one-of-near = field `{ $field }` must be one of { $names }, found "{ $found }" (did you mean "{ $near }"?)
validate-not-one-of = { $field } "{ $found }" is not one of { $names }
validate-not-one-of-near = { $field } "{ $found }" is not one of { $names } (did you mean "{ $near }"?)

## The ledger's rules

validate-cluster-id = cluster id "{ $id }" must be lowercase letters, digits and '-', at most 63 characters
validate-duplicate-id = duplicate cluster id "{ $id }" (first defined at { $first })
validate-duplicate-context = context "{ $context }" is already used by cluster "{ $cluster }" (at { $first })
validate-duplicate-identity = kubeSystemUID "{ $uid }" is already pinned by cluster "{ $cluster }" (at { $first })
validate-exception-expired = exception "{ $what }" expired on { $expires } ({ $days } days ago); renew it with a new date or remove it (owner: { $owner })
validate-exception-expiring = exception "{ $what }" expires on { $expires } (in { $days } days; owner: { $owner })
validate-dictionary-undeclared = labelDictionary does not declare `{ $key }`, so its values are not checked
validate-not-in-dictionary = { $key } "{ $value }" is not in the labelDictionary (allowed: { $allowed })
validate-not-in-dictionary-near = { $key } "{ $value }" is not in the labelDictionary (allowed: { $allowed }) (did you mean "{ $near }"?)

## YAML syntax (`src/yaml/node.rs`); the parser's own words are shown as it wrote them

validate-yaml-syntax = YAML syntax error: { $info }
validate-second-document = expected a single YAML document, found a second one
validate-unknown-anchor = alias refers to an unknown anchor
validate-unbalanced = unbalanced YAML
validate-alias-bomb = document expands to more than { $max } values (alias bomb?)
validate-key-not-string = mapping keys must be plain strings

## The ledger's fields (`src/model/ledger/decode.rs`)

validate-api-version = apiVersion must be "{ $want }", found "{ $found }"
validate-dictionary-shape = field `labelDictionary` must be a mapping of label to allowed values, found { $found }
validate-dictionary-twice = labelDictionary.{ $key } lists "{ $value }" twice
validate-kubernetes-version = versions.kubernetes "{ $version }" is not written as the API server reports it (v1.32.3)
validate-server-url = identity.server must be an http(s) URL, found "{ $server }"
validate-host-bits = { $field } { $text } has host bits set (did you mean { $network }?)
validate-not-cidr = { $field } "{ $text }" is not a CIDR (expected e.g. 10.32.0.0/14 or fd00::/48)
validate-backup-zero = backup.{ $name } must be longer than zero
validate-field-duration = { $field }: { $error }
validate-drill-without-date = backup.lastRestoreDrillDuration without lastRestoreDrill: the drill it measures has no date
validate-not-timestamp = { $field } "{ $text }" is not a date or time (expected e.g. 2026-11-28T02:00:00Z)
validate-not-date = { $field } "{ $text }" is not a date (expected YYYY-MM-DD, e.g. 2026-12-31)
validate-support-duplicate = supportMatrix has two combinations named "{ $name }"
validate-support-empty = a validated combination names at least one version
validate-support-minor = kubernetesSupport key "{ $key }" is not a Kubernetes minor (v1.32)
validate-unsupported-combination = cluster "{ $cluster }" runs an unsupported combination: { $outside } in no validated combination
validate-untested-combination = cluster "{ $cluster }" runs an untested combination: the closest validated one, { $closest }, differs in { $differs }
validate-window-no-days = maintenanceWindow.days must name at least one day
validate-window-start = maintenanceWindow.start "{ $text }" is not a time of day (expected HH:MM, e.g. 02:00)
validate-window-zero = maintenanceWindow.duration must be longer than zero
validate-window-week = maintenanceWindow.duration { $text } is longer than a week
validate-window-zone = maintenanceWindow.timezone "{ $text }" is not a known time zone (e.g. UTC, Europe/Berlin)

## Durations as written in files (`src/model/duration.rs`)

validate-longer-than-zero = field `{ $field }` must be longer than 0s
validate-field-duration-named = field `{ $field }`: { $error }
validate-duration-empty = empty duration
validate-duration-malformed = malformed duration "{ $text }": expected a number followed by d, h, m or s, e.g. 1h30m
validate-duration-too-large = duration "{ $text }" is too large

## The ledger's rules (`src/model/ledger/rules.rs`)

validate-label-undeclared = label `{ $key }` is not declared in the labelDictionary
validate-label-undeclared-near = label `{ $key }` is not declared in the labelDictionary (did you mean `{ $near }`?)
validate-cidr-own = serviceCIDR { $service } overlaps this cluster's own podCIDR { $pod }
validate-cidr-overlap = { $field } { $net } overlaps { $otherField } { $otherNet } of cluster "{ $cluster }" (at { $at })
validate-no-owner-production = cluster "{ $cluster }" is production but has no owner
validate-no-owner-critical = cluster "{ $cluster }" is critical but has no owner
validate-no-identity = cluster "{ $cluster }" has no pinned identity; every action on it will be refused

## Maintenance files (`src/model/maintenance/decode.rs`)

validate-hook-outlasts-deadline = the hook's timeout ({ $timeout }) is longer than the Maintain deadline ({ $deadline }): the step will be stuck before the hook is stopped
validate-at-least-one-node = field `{ $field }` must be at least 1, or nothing can ever be maintained
validate-names-or-selector = nodes takes either `names` or `selector`, not both
validate-nodes-needs = nodes needs `names` (a list) or `selector` (a label selector)
validate-names-empty = field `names` lists no node
validate-node-twice = node "{ $name }" is listed twice
validate-selector-empty = field `selector` must not be empty: it would select every node
validate-exec-or-manual = action takes either `exec` or `manual`, not both
validate-action-needs = action needs `exec` (a program to run) or `manual` (a person does it)
validate-argv-empty = field `argv` needs at least the program to run
validate-argv-shell = argv runs a shell script: fleetdeck passes argv without a shell on purpose; prefer calling the program directly
validate-per-domain-no-effect = perFailureDomain ({ $per }) is larger than maxUnavailable ({ $max }) and has no effect
validate-domain-label-empty = field `failureDomainLabel` must not be empty: name a node label, or leave the field out for { $default }
validate-label-two-budgets = label "{ $label }" has two budgets
validate-deadlines-shape = field `deadlines` must be a mapping of step to duration, found { $found }
validate-unknown-step = unknown step `{ $key }` in deadlines; steps are { $names }
validate-unknown-step-near = unknown step `{ $key }` in deadlines (did you mean `{ $near }`?); steps are { $names }
validate-unknown-version = unknown version `{ $key }` in expectedVersions; known: { $names }
validate-unknown-version-near = unknown version `{ $key }` in expectedVersions (did you mean `{ $near }`?); known: { $names }

## Rollout files (`src/model/rollout/decode.rs`, `decode_checks.rs`)

validate-batch-over-in-flight = stage "{ $stage }" has batchSize { $size } but maxInFlight is { $max }: its batches hold at most { $max }
validate-bundle-empty = field `bundle` names no component version
validate-bundle-no-version = bundle.{ $component } has no version
validate-no-checks = release has no `checks`: a cluster counts as succeeded as soon as the action returns
validate-apply-or-exec = action takes either `apply` or `exec`, not both
validate-release-action-needs = action needs `apply` (a manifest directory) or `exec` (a program per cluster)
validate-stages-empty = field `stages` lists no stage
validate-stage-twice = stage "{ $stage }" is declared twice
validate-count-or-percent = a stage takes either `count` or `percent`, not both
validate-stage-needs-size = stage needs `count` or `percent` (only the last stage may leave it out and take the rest)
validate-unknown-metrics-ignore = unknownMetrics: ignore lets the rollout continue without evidence
validate-objective-below-100 = field `objective` must be below 100%: a 100% objective has no error budget
validate-above-zero = field `{ $field }` must be above 0
validate-query-no-cluster = the query has no `$cluster`: every cluster would get the same error ratio
validate-short-max-needs-window = field `shortMaxBurn` needs `shortWindow`: the short window it is the maximum of
validate-short-window-longer = field `shortWindow` ({ $short }) must be shorter than `window` ({ $long })
validate-check-kinds = a check is one of { $names }; this one has { $present }
validate-check-needs = a check needs one of { $names }
validate-min-ratio = field `minRatio` must be between 0 and 1, found { $found }
validate-namespace-or-selector = workloadsReady takes either `namespace` or `selector`, not both
validate-workloads-needs = workloadsReady needs `namespace` or `selector`

## A value its field's rule refuses (`Fields::non_empty_checked`)

validate-field-value-why = field `{ $key }` "{ $text }" { $why }
validate-not-uid = is not a UID (8-4-4-4-12 hexadecimal digits, as `kubectl get ns kube-system -o jsonpath='{"{"}.metadata.uid{"}"}'` prints it)
validate-not-a-cluster = is not a cluster of the ledger
validate-not-a-cluster-near = is not a cluster of the ledger (did you mean "{ $near }"?)
run-name-rule = must be lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, at most 63 characters (it is part of run ids); { $why }
run-name-empty = it is empty
run-name-has = it has { $chars }
run-name-long = it has { $n } characters
run-name-ends = it starts or ends with '-' or '.'
validate-bad-selector = invalid selector { $selector }: { $reason }
validate-and = { $a } and { $b }
