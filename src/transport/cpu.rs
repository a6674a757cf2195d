//! CPU time of the calling thread (`CLOCK_THREAD_CPUTIME_ID`, through
//! rustix). `/proc/thread-self/schedstat` is not used: the kernel only
//! folds a running thread's current slice into it at the next tick or
//! switch, so short bursts read as 0.

use std::io;

/// Nanoseconds the calling thread has spent on a CPU.
pub fn thread_ns() -> io::Result<u64> {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    u64::try_from(t.tv_sec)
        .ok()
        .and_then(|s| s.checked_mul(1_000_000_000))
        .and_then(|ns| ns.checked_add(u64::try_from(t.tv_nsec).ok()?))
        .ok_or_else(|| io::Error::other(format!("thread CPU clock out of range: {t:?}")))
}

#[cfg(test)]
mod tests {
    #[test]
    fn grows_with_short_work() {
        let a = super::thread_ns().unwrap();
        let mut x = 0u64;
        for i in 0..200_000u64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        let b = super::thread_ns().unwrap();
        assert!(b > a, "{a} -> {b}");
    }
}
