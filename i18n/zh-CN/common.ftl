# 全界面共用的计数和词语。中文没有复数变化，用量词：个集群、个节点、项例外、项。

count-clusters = { $count ->
    [one] { $n } 个集群
   *[other] { $n } 个集群
}
count-nodes = { $count ->
    [one] { $n } 个节点
   *[other] { $n } 个节点
}
count-exceptions = { $count ->
    [one] { $n } 项例外
   *[other] { $n } 项例外
}
count-items = { $count ->
    [one] { $n } 项
   *[other] { $n } 项
}
count-events = { $count ->
    [one] { $n } 个事件
   *[other] { $n } 个事件
}
verbatim = { $text }
