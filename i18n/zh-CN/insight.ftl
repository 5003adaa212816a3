# Screen bodies of capacity, the timeline and findings: titles, column headers, labels,
# hints and messages.
