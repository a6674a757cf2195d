//! The links results in `paper/generated/`: `links.csv` (one row per link
//! and round-trip time) and the `\Links*` macros.

use crate::fmt::{RATIO, fixed, fixed_opt};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::links::{Exchange, Links, Verdict, verdict};
use crate::model::recommend::text::interval_text;
use crate::model::stats::MinMax;
use crate::read::transport::Mode;
use crate::render::names::{macro_suffix, tex_escape};

/// `links.csv`'s header.
pub const HEADER: &str = "link,rtt_ms,modelled,json_deflate_ms,json_none,json_ctx,\
best_none,best_none_ratio,best_deflate,best_deflate_ratio,best_deflate_lo,best_deflate_hi,\
best_ctx,best_ctx_ratio";

/// `links.csv`: per link (unshaped first) and round-trip time, json with
/// deflate in ms and every ratio to it; header only without links results.
pub(super) fn links_csv(c: &Campaign) -> String {
    let mut out = format!("{HEADER}\n");
    let Some(l) = crate::model::links::links(c) else {
        return out;
    };
    for e in &l.exchanges {
        let part = |r: Option<Interval>, f: fn(Interval) -> f64| fixed_opt(r.map(f), RATIO);
        let est = |r: Interval| r.est;
        let best = |m: Mode| {
            let b = e.best.get(m).as_ref();
            (
                b.map_or(String::new(), |b| b.profile.clone()),
                b.and_then(|b| b.vs_json_deflate),
            )
        };
        let (none, none_r) = best(Mode::None);
        let (deflate, deflate_r) = best(Mode::Deflate);
        let (ctx, ctx_r) = best(Mode::DeflateCtx);
        let row = [
            l.links[e.link].label(),
            fixed(e.rtt_ms, 0),
            if e.modelled { "yes" } else { "no" }.to_owned(),
            fixed(e.json_deflate_s.est * 1e3, 3),
            part(e.json_none, est),
            part(e.json_ctx, est),
            none,
            part(none_r, est),
            deflate,
            part(deflate_r, est),
            part(deflate_r, |r| r.lo),
            part(deflate_r, |r| r.hi),
            ctx,
            part(ctx_r, est),
        ];
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => "none".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `who` against json with deflate, in words, its ratio with the decimals
/// its interval supports; a difference only where the interval excludes 1.
fn claim(who: &str, r: Interval) -> String {
    let ratio = interval_text(r.est, r.lo, r.hi);
    match verdict(r) {
        Verdict::Faster | Verdict::Slower => {
            format!("{who} takes {ratio} times the time of JSON with deflate")
        }
        Verdict::Unresolved => format!(
            "{who} is not resolved from JSON with deflate ({ratio} times its time; the interval \
             holds 1)"
        ),
    }
}

/// The macros of one link at one round-trip time, named `<name><L>`.
fn exchange_macros(m: &mut Vec<(String, String)>, l: &Links, e: &Exchange, tail: &str) {
    let s = format!("{}{tail}", macro_suffix(&l.links[e.link].name));
    if let Some(b) = &e.best.deflate
        && let Some(r) = b.vs_json_deflate
    {
        let who = format!("\\prof{{{}}} with deflate", tex_escape(&b.profile));
        m.push((format!("LinksBestDeflate{s}"), tex_escape(&b.profile)));
        m.push((
            format!("LinksBestDeflateRatio{s}"),
            interval_text(r.est, r.lo, r.hi),
        ));
        m.push((format!("LinksBestDeflateClaim{s}"), claim(&who, r)));
    }
    if let Some(r) = e.json_none {
        m.push((
            format!("LinksJsonNoneRatio{s}"),
            interval_text(r.est, r.lo, r.hi),
        ));
        m.push((
            format!("LinksJsonNoneClaim{s}"),
            claim("uncompressed JSON", r),
        ));
    }
}

/// The `\Links*` macros; none without links results. Per link `<L>` (the
/// link's name as a macro suffix: `Unshaped`, `OneZeroMbit`), at the
/// measured round trip, and with `RttMax` appended at the largest modelled
/// one.
pub(super) fn links_macros(c: &Campaign) -> Vec<(String, String)> {
    let mut m = Vec::new();
    let Some(l) = crate::model::links::links(c) else {
        return m;
    };
    m.push(("LinksEvents".to_owned(), l.events.text()));
    m.push(("LinksPublished".to_owned(), l.published.to_string()));
    m.push((
        "LinksRounds".to_owned(),
        MinMax::of(l.links.iter().map(|k| k.rounds)).map_or_else(|| "0".to_owned(), |r| r.text()),
    ));
    let rates: Vec<String> = l
        .links
        .iter()
        .filter_map(|k| k.rate_mbit.map(|r| format!("{r}")))
        .collect();
    m.push(("LinksRates".to_owned(), and_list(&rates)));
    let rtts: Vec<String> = l.modelled_rtts.iter().map(|r| fixed(*r, 0)).collect();
    m.push(("LinksRttModelled".to_owned(), and_list(&rtts)));
    let rtt_max = l.modelled_rtts.last().copied();
    if let Some(r) = rtt_max {
        m.push(("LinksRttMax".to_owned(), fixed(r, 0)));
    }
    for k in &l.links {
        let name = k
            .rate_mbit
            .map_or_else(|| "unshaped".to_owned(), |r| format!("{r}\\,Mbit/s"));
        m.push((format!("LinksName{}", macro_suffix(&k.name)), name));
    }
    for e in &l.exchanges {
        if !e.modelled {
            exchange_macros(&mut m, &l, e, "");
        } else if Some(e.rtt_ms) == rtt_max {
            exchange_macros(&mut m, &l, e, "RttMax");
        }
    }
    // EVENT bytes are the same on every link: the first link's, with deflate.
    if let Some(p) = l.publish.iter().find(|p| p.mode == Mode::Deflate) {
        m.push((
            "LinksEventSmallest".to_owned(),
            tex_escape(&p.smallest.profile),
        ));
        m.push(("LinksEventPctDeflate".to_owned(), fixed(p.bytes_pct(), 1)));
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_state_only_resolved_differences() {
        let faster = claim(
            "X",
            Interval {
                est: 0.8291,
                lo: 0.8265,
                hi: 0.8316,
            },
        );
        assert_eq!(
            faster,
            "X takes 0.829 [0.827, 0.832] times the time of JSON with deflate"
        );
        let open = claim(
            "X",
            Interval {
                est: 1.0548,
                lo: 0.9939,
                hi: 1.1158,
            },
        );
        assert!(open.starts_with("X is not resolved"), "{open}");
        assert!(open.contains("1.1 [1.0, 1.1]"), "{open}");
    }
}
