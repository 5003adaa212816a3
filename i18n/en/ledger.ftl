# ledger validate.
