//! CPU time of the calling thread, from `/proc/thread-self/schedstat`
//! (nanoseconds on CPU; Linux).

use std::io;

/// Nanoseconds the calling thread has spent on a CPU.
pub fn thread_ns() -> io::Result<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")?;
    text.split_whitespace()
        .next()
        .and_then(|f| f.parse().ok())
        .ok_or_else(|| io::Error::other(format!("unexpected schedstat line `{}`", text.trim())))
}

#[cfg(test)]
mod tests {
    #[test]
    fn grows_with_work() {
        let a = super::thread_ns().unwrap();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
        let b = super::thread_ns().unwrap();
        assert!(b > a, "{a} -> {b}");
    }
}
