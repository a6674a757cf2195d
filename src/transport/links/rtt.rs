//! Round-trip time, modelled: `tbf` adds no delay and this kernel has no
//! `netem`, so the time a REQ → EOSE exchange would take with a round-trip
//! time is the measured time (on the shaped link, with no delay) plus what
//! the delay adds: one round trip for the REQ and the first answer byte,
//! and every slow-start round in which the sender has sent its whole
//! congestion window before the first acknowledgement returns
//! (`docs/TRANSPORT.md`, "Round-trip time").
//!
//! Assumptions, each stated in the docs: an initial window of 10 segments
//! (RFC 6928, Linux's default), 1448 payload bytes per 1500-byte frame
//! (TCP timestamps on), the window doubling every round trip (slow start,
//! no loss, an acknowledgement per segment), and no receive-window limit
//! (Linux autotunes it far above these answers).

/// Segments in the initial congestion window (RFC 6928).
pub const INITIAL_WINDOW: u64 = 10;
/// TCP payload bytes per segment on a 1500-byte MTU with timestamps.
pub const MSS: u64 = 1448;
/// Bytes one full segment occupies on the link (IP, TCP, Ethernet).
pub const FRAME: u64 = 1514;

/// Seconds a message of `bytes` (TCP payload) takes to serialise at
/// `bits_per_s`, headers of every segment included; 0 unshaped.
pub fn serialise_s(bytes: u64, bits_per_s: Option<f64>) -> f64 {
    bits_per_s.map_or(0.0, |r| {
        (bytes + bytes.div_ceil(MSS) * (FRAME - MSS)) as f64 * 8.0 / r
    })
}

/// Seconds that a round-trip time of `rtt_s` adds to an answer of `bytes`
/// (relay → client, one fresh connection) on a link of `bits_per_s`
/// (`None`: unshaped, serialisation taken as free).
pub fn added_s(bytes: u64, bits_per_s: Option<f64>, rtt_s: f64) -> f64 {
    if rtt_s <= 0.0 {
        return 0.0;
    }
    let segments = bytes.div_ceil(MSS);
    let frame_s = bits_per_s.map_or(0.0, |r| FRAME as f64 * 8.0 / r);
    let mut added = rtt_s;
    let (mut sent, mut window) = (0u64, INITIAL_WINDOW);
    while sent + window < segments {
        added += (rtt_s - window as f64 * frame_s).max(0.0);
        sent += window;
        window *= 2;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_window_costs_one_round_trip() {
        assert_eq!(added_s(0, None, 0.05), 0.05);
        assert_eq!(added_s(10 * MSS, Some(1e6), 0.05), 0.05);
        assert_eq!(added_s(1000, Some(1e6), 0.0), 0.0);
    }

    #[test]
    fn slow_start_rounds_stall_until_the_window_fills_the_pipe() {
        // Unshaped: 10 + 20 + 40 segments sent before the rest, 3 stalls.
        let bytes = 71 * MSS;
        assert!((added_s(bytes, None, 0.1) - 0.4).abs() < 1e-12);
        // At 1 Mbit/s a 10-segment window takes 121 ms to send: longer
        // than a 50 ms round trip, so no stall after the first.
        assert!((added_s(bytes, Some(1e6), 0.05) - 0.05).abs() < 1e-12);
        // At 100 Mbit/s: stalls of 100 - 1.2, 100 - 2.4, 100 - 4.8 ms.
        let frame = FRAME as f64 * 8.0 / 1e8;
        let want = 0.1 + (0.1 - 10.0 * frame) + (0.1 - 20.0 * frame) + (0.1 - 40.0 * frame);
        assert!((added_s(bytes, Some(1e8), 0.1) - want).abs() < 1e-12);
    }

    #[test]
    fn serialisation_counts_every_segment_header() {
        assert_eq!(serialise_s(1000, None), 0.0);
        assert!((serialise_s(MSS, Some(1e6)) - FRAME as f64 * 8e-6).abs() < 1e-12);
        assert!((serialise_s(MSS + 1, Some(1e6)) - (FRAME + 67) as f64 * 8e-6).abs() < 1e-12);
    }

    #[test]
    fn more_bytes_never_cost_less() {
        let mut last = 0.0;
        for kib in 0..2000 {
            let t = added_s(kib * 1024, Some(1e7), 0.15) + (kib * 1024 * 8) as f64 / 1e7;
            assert!(t >= last, "{kib} KiB");
            last = t;
        }
    }
}
