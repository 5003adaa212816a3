# CLI 表格的列名。ID、Kubernetes、CPU、GPU、Pod 等按术语表保留原文。

col-id = ID
col-env = 环境
col-region = 区域
col-failure-domain = 故障域
col-tier = 等级
col-lifecycle = 生命周期
col-kubernetes = KUBERNETES
col-owner = 负责人
col-context = CONTEXT
col-cluster = 集群
col-status = 状态
col-server = 服务器
col-age = 时长
col-identity = 身份
col-nodes = 节点
col-pods = POD
col-cpu = CPU
col-memory = 内存
col-gpu = GPU
col-note = 备注
