//! Tests of the calibration and its bound.

use super::*;

fn event(kind: u16, content_len: usize, tags: usize) -> Event {
    Event {
        id: [0; 32],
        pubkey: [0; 32],
        sig: [0; 64],
        created_at: 1_700_000_000,
        kind,
        tags: vec![vec!["t".into(), "x".into()]; tags],
        content: "a".repeat(content_len),
    }
}

/// A compressor with known sizes: half the bytes, and 10 bytes.
fn halve(json: &[u8]) -> std::io::Result<Compressed> {
    Ok(Compressed {
        zstd: json.len() / 2,
        deflate: 10,
    })
}

fn rows(generated: &[Event], real: &[Event]) -> Vec<KindRow> {
    calibrate(generated, real, halve).unwrap()
}

/// JSON size of `event(kind, 0, tags)` plus `content_len`.
fn size(kind: u16, content_len: usize, tags: usize) -> usize {
    event(kind, 0, tags).to_json().len() + content_len
}

#[test]
fn nearest_rank_percentiles() {
    let v: Vec<usize> = (1..=10).collect();
    assert_eq!(percentile(&v, 50.0), 5);
    assert_eq!(percentile(&v, 90.0), 9);
    assert_eq!(percentile(&v, 91.0), 10);
    assert_eq!(percentile(&v, 100.0), 10);
    assert_eq!(percentile(&v, 0.0), 1);
    assert_eq!(percentile(&v, 10.0), 1);
    assert_eq!(percentile(&v, 10.5), 2);
    assert_eq!(percentile(&v, 250.0), 10);
    assert_eq!(percentile(&[7], 50.0), 7);
    assert_eq!(percentile(&[], 50.0), 0);
    let odd = [1, 2, 3, 4, 100];
    assert_eq!(percentile(&odd, 50.0), 3);
    assert_eq!(percentile(&odd, 90.0), 100);
}

#[test]
fn exact_rows_on_hand_made_corpora() {
    let real = vec![
        event(1, 10, 0),
        event(1, 30, 2),
        event(1, 20, 1),
        event(7, 1, 2),
    ];
    let generated = vec![
        event(1, 5, 3),
        event(3, 100, 9),
        event(3, 300, 7),
        event(3, 200, 8),
        event(3, 400, 6),
    ];
    let rows = rows(&generated, &real);
    let kinds: Vec<u16> = rows.iter().map(|r| r.kind).collect();
    assert_eq!(kinds, [1, 7, 3], "real share desc, then kind");

    let k1 = &rows[0];
    assert_eq!(k1.real.count, 3);
    assert_eq!(k1.real.share_pct, 75.0);
    assert_eq!(k1.real.size_p50, Some(size(1, 20, 1)));
    assert_eq!(k1.real.size_p90, Some(size(1, 30, 2)));
    assert_eq!(k1.real.tags_p50, Some(1));
    assert_eq!(k1.generated.count, 1);
    assert_eq!(k1.generated.share_pct, 20.0);
    assert_eq!(k1.generated.size_p50, Some(size(1, 5, 3)));
    assert_eq!(k1.generated.tags_p50, Some(3));

    let k7 = &rows[1];
    assert_eq!(k7.real.share_pct, 25.0);
    assert_eq!(k7.generated.count, 0);
    assert_eq!(k7.generated.share_pct, 0.0);
    assert_eq!(k7.generated.size_p50, None);

    let k3 = &rows[2];
    assert_eq!(k3.real.count, 0);
    assert_eq!(k3.generated.share_pct, 80.0);
    // Four values: the nearest-rank median is the 2nd smallest, p90 the
    // 4th. Sizes rank (100,9) < (200,8) < (300,7) < (400,6); tag counts
    // rank 6 < 7 < 8 < 9 independently of the sizes.
    assert_eq!(k3.generated.size_p50, Some(size(3, 200, 8)));
    assert_eq!(k3.generated.size_p90, Some(size(3, 400, 6)));
    assert_eq!(k3.generated.tags_p50, Some(7));
    assert_eq!(size(3, 200, 8), event(3, 200, 8).to_json().len());

    // Ratios sum over the kind: (Σ len / 2) / Σ len and 10 n / Σ len.
    let real_k1: Vec<usize> = [(10, 0), (30, 2), (20, 1)]
        .map(|(c, t)| size(1, c, t))
        .to_vec();
    let json: usize = real_k1.iter().sum();
    let halves: usize = real_k1.iter().map(|n| n / 2).sum();
    assert_eq!(k1.real.zstd_ratio, Some(halves as f64 / json as f64));
    assert_eq!(k1.real.deflate_ratio, Some(30.0 / json as f64));
    assert_eq!(k7.generated.zstd_ratio, None);
    assert_eq!(k3.real.deflate_ratio, None);
    // Too few real events to be bounded.
    assert!(rows.iter().all(|r| r.bound == Verdict::Unbounded));
}

fn stats_of(size: usize, tags: usize, zstd: f64) -> KindStats {
    KindStats {
        count: BOUND_MIN_REAL,
        share_pct: 1.0,
        size_p50: Some(size),
        size_p90: Some(2 * size),
        tags_p50: Some(tags),
        zstd_ratio: Some(zstd),
        deflate_ratio: Some(0.5),
    }
}

#[test]
fn the_bound_is_ten_percent_of_the_real_figure() {
    let real = stats_of(1000, 10, 0.5);
    assert_eq!(
        Verdict::of(1, &stats_of(1100, 11, 0.54), &real),
        Verdict::Pass
    );
    assert_eq!(
        Verdict::of(1, &stats_of(900, 9, 0.46), &real),
        Verdict::Pass
    );
    assert_eq!(
        Verdict::of(1, &stats_of(1101, 10, 0.56), &real),
        Verdict::Miss {
            missed: vec![Figure::SizeP50, Figure::SizeP90, Figure::ZstdRatio]
        }
    );
    // No tags on the real side: the generated median must be 0 too.
    let bare = stats_of(1000, 0, 0.5);
    assert_eq!(
        Verdict::of(1, &stats_of(1000, 1, 0.5), &bare),
        Verdict::Miss {
            missed: vec![Figure::TagsP50]
        }
    );
    let mut few = real.clone();
    few.count = BOUND_MIN_REAL - 1;
    assert_eq!(
        Verdict::of(1, &stats_of(9, 9, 0.9), &few),
        Verdict::Unbounded
    );
}

#[test]
fn a_kind_not_generated_misses_every_figure_unless_explained() {
    let real = stats_of(1000, 10, 0.5);
    let absent = stats(None, 100);
    assert_eq!(
        Verdict::of(7, &absent, &real),
        Verdict::Miss {
            missed: Figure::ALL.to_vec()
        }
    );
    let (kind, reason) = EXPLAINED[1];
    assert_eq!(
        Verdict::of(kind, &absent, &real),
        Verdict::Explained {
            missed: Figure::ALL.to_vec(),
            reason: reason.sentence(&real)
        }
    );
    // A reason does not hide a pass.
    assert_eq!(Verdict::of(kind, &real, &real), Verdict::Pass);
}

#[test]
fn explained_kinds_are_distinct_and_give_a_reason() {
    let mut kinds: Vec<u16> = EXPLAINED.iter().map(|(k, _)| *k).collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(kinds.len(), EXPLAINED.len());
    let real = KindStats {
        count: 42,
        ..stats_of(100, 10, 0.5)
    };
    for (_, why) in EXPLAINED {
        assert!(why.sentence(&real).len() > 20);
    }
    assert!(
        Reason::FollowCrawl
            .sentence(&real)
            .contains(&format!("median {CRAWL_FOLLOW_MEDIAN} p tags)"))
    );
    assert!(
        Reason::FollowCrawl
            .sentence(&real)
            .ends_with("only 42 follow lists")
    );
}

#[test]
fn bound_lines_name_every_bounded_kind() {
    let many = |kind, len| vec![event(kind, len, 1); BOUND_MIN_REAL];
    let real = [many(1, 100), many(6, 100), many(30000, 100)].concat();
    let generated = [many(1, 100), many(6, 900)].concat();
    let rows = rows(&generated, &real);
    assert_eq!(unexplained(&rows), [6]);
    let text = render_bound(&rows);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(lines[1], "kind 1: PASS");
    assert!(lines[2].starts_with("kind 6: MISS (p50 B "), "{text}");
    assert!(
        lines[3].starts_with("kind 30000: explained (p50 B - vs "),
        "{text}"
    );
    assert_eq!(lines[4], "1 pass, 1 explained, 1 miss");
}

#[test]
fn ties_in_real_share_sort_by_kind() {
    let real = vec![event(9, 0, 0), event(2, 0, 0)];
    let rows = rows(&[], &real);
    assert_eq!(rows.iter().map(|r| r.kind).collect::<Vec<_>>(), [2, 9]);
    assert_eq!(
        rows[0].generated.share_pct, 0.0,
        "empty corpus has no shares"
    );
}

#[test]
fn table_is_aligned_and_marks_missing_figures() {
    let rows = rows(&[event(3, 0, 1)], &[event(1, 0, 0), event(1, 1, 0)]);
    let table = render_table(&rows);
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines.len(), 4, "{table}");
    let widths: Vec<usize> = lines.iter().map(|l| l.chars().count()).collect();
    assert!(widths.windows(2).all(|w| w[0] == w[1]), "{table}");
    assert!(lines[0].starts_with("| kind |"), "{table}");
    let k1: Vec<&str> = lines[2].split('|').map(str::trim).collect();
    assert_eq!(&k1[1..6], ["1", "2", "0", "100.00", "0.00"], "{table}");
    assert_eq!(k1[7], "-", "{table}");
    let k3: Vec<&str> = lines[3].split('|').map(str::trim).collect();
    assert_eq!(&k3[1..4], ["3", "0", "1"], "{table}");
    assert_eq!(k3[6], "-", "{table}");
    assert_eq!(k3[16], "-", "unbounded: {table}");
}
