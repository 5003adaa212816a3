# Screen bodies of the fleet: the ledger, a cluster's drill-down, a node's page and the
# PDB pod list: titles, column headers, labels, hints and messages.

## 计数

fleet-count-pods = { $count ->
    [one] { $n } 个 Pod
   *[other] { $n } 个 Pod
}
fleet-count-contexts = { $count ->
    [one] { $n } 个 kubeconfig 上下文
   *[other] { $n } 个 kubeconfig 上下文
}

## 台账

fleet-col-cluster = 集群
fleet-col-env = 环境
fleet-col-region = 区域/故障域
fleet-col-tier = 等级
fleet-col-k8s = K8S
fleet-col-nodes = 节点
fleet-col-gpus = GPU
fleet-col-status = 状态 · 最后联系
fleet-col-status-short = 状态
fleet-col-findings = 发现
fleet-col-in-flight = 进行中
fleet-col-owner = 负责人
fleet-col-backup = 备份
fleet-col-drill = 恢复演练
fleet-order = { $column }，{ $order }
fleet-order-worst-first = 最差在前
fleet-order-healthiest-first = 最健康在前
fleet-order-most-not-ready = 未就绪最多在前
fleet-order-fewest-not-ready = 未就绪最少在前
fleet-order-changing-first = 变更中在前
fleet-order-changing-last = 变更中在后
fleet-order-fewest-first = 最少在前
fleet-order-oldest-first = 最旧在前
fleet-order-newest-first = 最新在前
fleet-order-fewest-free = 空闲最少在前
fleet-order-most-free = 空闲最多在前
fleet-order-a-z = A→Z
fleet-order-z-a = Z→A
fleet-ledger-shown = 显示 { $shown }/{ $total } 个集群
fleet-ledger-sort = · 排序：{ $order }
fleet-ledger-by-region = · 按区域分组
fleet-ledger-by-env = · 按环境分组
fleet-ledger-marked = · 已标记 { $n } 个
fleet-ledger-filter-unknown = · 过滤：{ $keys }
fleet-ledger-rows-above = · 第 { $first }–{ $last } 行，共 { $total } 行，上方 { $above } 行
fleet-ledger-rows = · 第 { $first }–{ $last } 行，共 { $total } 行
fleet-ledger-tail = ：{ $list }
fleet-ledger-tail-more = ：{ $list }（另有 { $n } 个）
fleet-ledger-unregistered-reconcile = { $what }不在台账中{ $tail }（ledger reconcile）
fleet-ledger-unregistered = { $what }不在台账中{ $tail }
fleet-ledger-unregistered-short = { $n } 个未登记
fleet-ledger-empty = 台账中没有集群
fleet-ledger-version-ledger = { $version }（台账）
fleet-ledger-zone-down = { $nodes }，{ $zone } 不可用
fleet-ledger-one-zone-down = { $nodes }，1 个可用区不可用
fleet-ledger-zone-down-short = { $nodes } 可用区不可用
fleet-ledger-zones-down = { $nodes }，{ $n } 个可用区不可用
fleet-ledger-zones-down-short = { $nodes } 可用区不可用
fleet-ledger-heard = { $status } { $ago }前
fleet-ledger-never-heard = { $status }，从未联系上
fleet-none = 无
fleet-never = 从未
fleet-none-paren = （无）
fleet-no-data = 无数据
fleet-no-cluster-listed = 没有列出集群（过滤条件一个也不匹配）
fleet-no-cluster-marked = 没有标记集群

## 各表格共用

fleet-no-match = 没有匹配过滤条件的{ $what }
fleet-no-match-key = 没有匹配过滤条件的{ $what }（{ $key } 清除）
fleet-noun-cluster = 集群
fleet-noun-node = 节点

## 集群下钻页

fleet-cluster-where = { $place }  等级 { $tier }  负责人 { $owner }
fleet-cluster-heard = { $status }，最后联系于 { $ago }前
fleet-cluster-never-synced = { $status }，从未同步
fleet-cluster-versions = { $live }（台账 { $ledger }）
fleet-identity-matched-then = 上次检查时身份一致
fleet-identity-matching = 身份已固定且一致
fleet-identity-not-pinned = 身份未固定：操作会被拒绝
fleet-identity-mismatch-below = 身份不一致（见下）
fleet-identity-not-checked = 身份尚未检查
fleet-identity-mismatch = 身份不一致：{ $reason }
fleet-cluster-no-counts = 没有节点或 Pod 数据
fleet-cluster-nothing-read = 尚未从它读到任何数据；这里的一切都不计入
fleet-cluster-last-seen = 下面的数字是最后所见，不是当前的；这里的一切都不计入
fleet-cluster-not-fresh = { $status } — { $what }
fleet-cluster-not-fresh-why = { $status } — { $what }：{ $why }
fleet-cluster-partial = 部分数据无法读取
fleet-cluster-degraded = Degraded — 已计入，但：{ $why }
fleet-cluster-no-data-yet = 尚无此集群的数据
fleet-credential = 凭据：{ $kind }，用户 { $user } · { $expiry }{ $runs ->
    [0] {""}
   *[other] {" "}· 插件已运行 { $runs } 次
}
fleet-credential-expires-in = 还可用 { $left }
fleet-credential-expired = 已于 { $ago }前过期
fleet-credential-no-expiry = 未给出过期时间
fleet-credential-not-yet = 尚未获取
fleet-credential-problem = 凭据问题，{ $kind }：{ $message }
fleet-credential-login-hint = 按 i，或输入 :login { $context }，在此终端上用 { $program } 登录
fleet-credential-warning = 续期失败，手上的凭据仍然有效：{ $message }
fleet-credential-stderr = { $program } 输出：{ $line }
fleet-col-node = 节点
fleet-col-zone = 可用区
fleet-col-block = 区块
fleet-col-ready = 就绪
fleet-col-cordon = 封锁
fleet-col-maintenance = 维护
fleet-col-gpus-free = GPU 空闲
fleet-col-pods = Pod
fleet-col-counts = 计入容量
fleet-yes = 是
fleet-no = 否
fleet-in-maintenance = 维护中
fleet-counts-no-fresh-data = 否：无新数据
fleet-counts-no = 否：{ $why }
fleet-health-healthy = 健康
fleet-health-not-ready = 未就绪
fleet-health-readiness-unknown = 就绪状态未知
fleet-health-cordoned = 已封锁
fleet-health-in-maintenance = 维护中
fleet-health-taint = 污点 { $key }
fleet-cluster-no-nodes = 该集群没有节点
fleet-cluster-no-node-data = 无节点数据：对该集群的节点一无所知
fleet-panels-left-out = PDB、发现和事件日志面板已省略：请放大终端
fleet-panels-left-out-short = 面板已省略（请放大）
fleet-pdbs-title-open = 会阻塞腾空的 PDB（{ $count }）· { $key } 查看 Pod
fleet-pdbs-title = 会阻塞腾空的 PDB（{ $count }）
fleet-pdbs-title-medium = 阻塞腾空的 PDB（{ $count }）
fleet-pdbs-title-short = 阻塞的 PDB（{ $count }）
fleet-pdbs-none = 无：每个 PDB 现在都允许干扰
fleet-pdbs-unknown = 未知：该集群没有新数据
fleet-pdb-on = { $pods } 在 { $nodes }上
fleet-pdb-line-long = { $name } 健康 { $has }，需要 { $needs } · { $on }
fleet-pdb-line = { $name } 健康 { $has }，需要 { $needs }
fleet-pdb-line-short = { $name } 健康 { $has }/{ $needs }
fleet-events-title = 最近的事件日志
fleet-events-title-short = 事件日志
fleet-events-no-journal = 未连接事件日志：事件未知
fleet-events-none = 该集群没有事件
fleet-no-pdb-to-open = 这里没有阻塞腾空的 PDB：没有可打开的
fleet-marks-for-nodes = 标记只用于节点
fleet-marks-for-nodes-key = 标记只用于节点（{ $key } 回到节点）
fleet-no-node-listed = 这里没有列出节点
fleet-no-node-marked = 没有标记节点
fleet-no-data-for = 尚无 { $id } 的数据：没有可选的节点

## 节点页

fleet-node-not-found = 节点 { $node } 不在集群 { $cluster } 的当前数据中（已移除，或该集群没有数据）
fleet-node-title = 节点 { $node }
fleet-node-where = 集群 { $cluster } · 可用区 { $zone } · 区块 { $block } · kubelet { $kubelet }
fleet-node-counts = 计入容量：{ $answer }
fleet-node-cordoned = 已封锁
fleet-node-not-cordoned = 未封锁
fleet-node-held = 维护中（事件日志）
fleet-node-reserved = 已被批准的维护批次预留
fleet-node-in-service = 服务中
fleet-node-pods-used = Pod 已用 { $used }/{ $total }
fleet-node-requested = { $dimension } 已请求 { $used }/{ $total }
fleet-dim-memory = 内存
fleet-node-taints-none = 污点：无
fleet-node-taints = 污点：{ $taints }
fleet-node-labels = 标签：{ $labels }
fleet-node-pods = 此节点上有 { $pods }
fleet-node-pods-trouble = 此节点上有 { $pods }，腾空前需查看其中 { $n } 个
fleet-node-no-pods = 此节点上没有占用资源的 Pod
fleet-col-pod = Pod
fleet-col-pod-owner = 属主
fleet-col-pod-status = 状态
fleet-col-cpu = CPU
fleet-col-memory = 内存
fleet-col-gpu = GPU
fleet-col-fate = 若腾空，Pod 去向
fleet-fate-moves = 可迁移
fleet-fate-blocked = 受阻于 PDB { $pdb }
fleet-fate-held = 仅限于 { $domain }（卷）
fleet-fate-no-room = 否：{ $why }
fleet-fate-stays = 随节点留下
fleet-fate-terminating = 终止中
fleet-fate-bare = 裸 Pod：被删除，不会重建
fleet-fate-no-node = 没有其他节点能接收它

## PDB 的 Pod 列表

fleet-pdb-title-long = PDB { $pdb }（{ $cluster }）· { $open } 打开 Pod 所在节点 · { $close } 关闭
fleet-pdb-title = PDB { $pdb } · { $close } 关闭
fleet-pdb-gone = 该 PDB 不在集群的当前数据中（已删除，或没有新数据）
fleet-pdb-summary = 健康 { $has }，需要 { $needs }，现在允许 { $allowed } 次干扰 · { $pods }，分布在 { $nodes }上
fleet-col-eviction = 现在驱逐
fleet-not-scheduled = （未调度）
fleet-eviction-refused = 拒绝
fleet-eviction-allowed = 允许

## 在列表中移动（所有屏幕）


## 从集群下钻页或节点页发起的假设分析


## 腾空节点上的 Pod 为何无处可去（假设分析的原因，显示在节点页）

fleet-unplaced-cluster-lost = 集群已失去
fleet-unplaced-no-eligible = 没有剩余节点满足它的选择算符、容忍度或拓扑
fleet-unplaced-volume-domain = 它的卷把它限定在 { $domain }，那里已没有健康节点
fleet-unplaced-volume-lost-cluster = 它的卷把它限定在已失去集群的 { $domain }：其数据不会迁移
fleet-unplaced-not-run-elsewhere = 没有同级集群运行它的工作负载
fleet-unplaced-insufficient = 没有符合条件的节点有足够的空闲 { $dimension }
fleet-unplaced-fragmented = 空闲容量分散在多个节点上
fleet-unplaced-volumes-unknown = 它挂载了卷，且 { $why }：能否迁移未知
