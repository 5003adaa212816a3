//! What the benchmarks read about their own process (Linux `/proc`).
#![allow(dead_code)]

/// CPU seconds (user + system) this process has used: robust against other load, and
/// what tells a client's own cost from a simulator's on the same cores.
pub fn cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let fields: Vec<&str> = s.rsplit_once(')')?.1.split_whitespace().collect();
            let utime: f64 = fields.get(11)?.parse().ok()?;
            let stime: f64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) / 100.0)
        })
        .unwrap_or(0.0)
}

/// Resident memory of this process, in bytes.
pub fn rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// The middle value (the upper one of an even count); sorts `values`.
pub fn median<T: PartialOrd + Copy>(values: &mut [T]) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    values[values.len() / 2]
}

/// Resident memory once the allocator has handed its free pages back to the kernel.
/// glibc keeps memory that was used and freed (page buffers, decoded pages) in its
/// per-thread arenas; `malloc_trim` returns it, which tells what the process holds on
/// to from what it merely used once.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn trimmed_rss_bytes() -> u64 {
    unsafe extern "C" {
        fn malloc_trim(pad: usize) -> i32;
    }
    // SAFETY: `malloc_trim` takes no pointers; it only releases free memory of glibc's
    // own heaps, which no live allocation uses.
    unsafe {
        malloc_trim(0);
    }
    rss_bytes()
}

/// Without glibc there is nothing to trim: the resident memory as it is.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trimmed_rss_bytes() -> u64 {
    rss_bytes()
}
