# Problems found in fleetdeck's files (`ledger validate`, and every file read the same
# way). The English sentences are written by `src/yaml/` and `src/model/ledger/` (and are
# in JSON output); these say the same in other languages. The `FILE:LINE:COL: ` prefix
# is never part of a message. Field names, values and kinds are shown as written.

validate-warning = warning
validate-summary-valid = { $file }: valid, { $clusters } clusters, { $warnings } warning(s)
validate-summary-expired = { $file }: { $errors } error(s) (expired exceptions: still read by every command, but new changes to those clusters need --acknowledge-expired-exceptions), { $clusters } clusters, { $warnings } warning(s)
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
