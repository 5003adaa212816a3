//! Capacity math over the slim fleet views: healthy allocatable, GPU shape, what-if
//! re-placement, N−1 failure-domain headroom and plain-language explanations.
