# Screen bodies of the fleet: the ledger, a cluster's drill-down, a node's page and the
# PDB pod list: titles, column headers, labels, hints and messages.
