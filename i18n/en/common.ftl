# Counts and words every part of the interface shares.
# $count selects the plural form; $n is the same number as shown (1,200).

count-clusters = { $count ->
    [one] { $n } cluster
   *[other] { $n } clusters
}
count-nodes = { $count ->
    [one] { $n } node
   *[other] { $n } nodes
}
count-exceptions = { $count ->
    [one] { $n } exception
   *[other] { $n } exceptions
}
count-items = { $count ->
    [one] { $n } item
   *[other] { $n } items
}
count-events = { $count ->
    [one] { $n } event
   *[other] { $n } events
}
verbatim = { $text }
