//! `summary/plots/*.{svg,png}` for the primary host.
//!
//! Text is drawn with the embedded DejaVu Sans (`assets/`, Bitstream Vera
//! licence) through plotters' `ab_glyph` backend, so PNGs need no system
//! font; SVGs name the family `sans-serif`.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use binostr_records::Workload;

use crate::interval::{Ci, Interval};
use crate::model::analysis::Analysis;
use crate::model::campaign::Campaign;
use crate::model::summary::{REFERENCE, Row, ratio_order};
use crate::read::side::LatencyNs;
use crate::read::sizes::SizeBytes;
use crate::read::transport::Mode;

mod cost;
mod heat;
mod links;

use heat::{Heat, HeatCell};

const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
const FAMILY: &str = "sans-serif";
const WIDTH: u32 = 1100;

const PALETTE: [RGBColor; 4] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0x94, 0x67, 0xbd),
];

fn font() -> Result<()> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED
        .get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(anyhow!("the embedded DejaVu Sans font does not parse"))
    }
}

fn plot_err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("drawing a plot: {e}")
}

/// One bar series.
struct Series {
    name: String,
    values: Vec<Option<f64>>,
    whiskers: Vec<Option<Ci>>,
}

/// Horizontal bars, one band per category, top to bottom.
struct Bars {
    title: String,
    x_desc: String,
    categories: Vec<String>,
    series: Vec<Series>,
    log_x: bool,
    marker: Option<Marker>,
}

/// A vertical reference line across the bars.
struct Marker {
    /// Its legend.
    label: String,
    /// Where it stands on the x axis.
    x: f64,
}

impl Marker {
    fn new(label: impl Into<String>, x: f64) -> Self {
        Marker {
            label: label.into(),
            x,
        }
    }
}

impl Bars {
    fn height(&self) -> u32 {
        let band = (16 * self.series.len() as u32 + 6).max(22);
        140 + band * self.categories.len() as u32
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()> {
        area.fill(&WHITE).map_err(plot_err)?;
        let n = self.categories.len();
        let t = |v: f64| if self.log_x { v.log10() } else { v };
        let (x0, x1) = self.x_range();
        let label_width = self
            .categories
            .iter()
            .map(|c| c.len() as u32 * 8 + 16)
            .max()
            .unwrap_or(40);
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FAMILY, 20))
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(label_width)
            .build_cartesian_2d(x0..x1, -0.5..(n as f64 - 0.5))
            .map_err(plot_err)?;
        let category = |y: &f64| {
            let j = y.round();
            if (y - j).abs() < 1e-6 && j >= 0.0 && (j as usize) < n {
                self.categories[n - 1 - j as usize].clone()
            } else {
                String::new()
            }
        };
        let log_x = self.log_x;
        let x_label = move |x: &f64| {
            if log_x {
                format!("{:.0}", 10f64.powf(*x))
            } else {
                format!("{x}")
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(n)
            .y_label_formatter(&category)
            .x_label_formatter(&x_label)
            .x_desc(&self.x_desc)
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 14))
            .draw()
            .map_err(plot_err)?;
        for (s, series) in self.series.iter().enumerate() {
            self.draw_series(&mut chart, s, series, (x0, x1))?;
        }
        if let Some(Marker { label: name, x: v }) = &self.marker {
            let x = t(*v);
            chart
                .draw_series(std::iter::once(PathElement::new(
                    vec![(x, -0.5), (x, n as f64 - 0.5)],
                    RED.stroke_width(2),
                )))
                .map_err(plot_err)?
                .label(name.as_str())
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], RED.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FAMILY, 13))
            .draw()
            .map_err(plot_err)?;
        area.present().map_err(plot_err)?;
        Ok(())
    }

    /// The x axis's range: from 0 (or below the smallest value, on a log
    /// axis) to beyond the largest value, whisker or marker.
    fn x_range(&self) -> (f64, f64) {
        let values = self.series.iter().flat_map(|s| {
            s.values
                .iter()
                .flatten()
                .copied()
                .chain(s.whiskers.iter().flatten().map(|w| w.hi))
        });
        let values: Vec<f64> = values
            .chain(self.marker.iter().map(|m| m.x))
            .filter(|v| v.is_finite() && *v > 0.0)
            .collect();
        let hi = values.iter().copied().fold(1.0, f64::max);
        if self.log_x {
            let lo = values.iter().copied().fold(hi, f64::min);
            (lo.log10() - 0.15, hi.log10() + 0.35)
        } else {
            (0.0, hi * 1.18)
        }
    }

    /// Series `s`: its bars, whiskers and (alone) value labels.
    fn draw_series<DB: DrawingBackend>(
        &self,
        chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
        s: usize,
        series: &Series,
        (x0, x1): (f64, f64),
    ) -> Result<()> {
        let n = self.categories.len();
        let k = self.series.len();
        let t = |v: f64| if self.log_x { v.log10() } else { v };
        let band = 0.8;
        let h = band / k as f64;
        let color = PALETTE[s % PALETTE.len()];
        let bar = |i: usize| {
            let centre = (n - 1 - i) as f64;
            let top = centre + band / 2.0 - s as f64 * h;
            (top - h, top)
        };
        let rects = series.values.iter().enumerate().filter_map(|(i, v)| {
            let v = (*v)?;
            let (y0, y1) = bar(i);
            Some(Rectangle::new([(x0, y0), (t(v), y1)], color.filled()))
        });
        chart
            .draw_series(rects)
            .map_err(plot_err)?
            .label(series.name.as_str())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled()));
        let whiskers = series.whiskers.iter().enumerate().filter_map(|(i, w)| {
            let Ci { lo, hi } = (*w)?;
            let (y0, y1) = bar(i);
            let yc = (y0 + y1) / 2.0;
            let cap = (y1 - y0) * 0.3;
            Some(vec![
                PathElement::new(vec![(t(lo), yc), (t(hi), yc)], BLACK.stroke_width(1)),
                PathElement::new(
                    vec![(t(lo), yc - cap), (t(lo), yc + cap)],
                    BLACK.stroke_width(1),
                ),
                PathElement::new(
                    vec![(t(hi), yc - cap), (t(hi), yc + cap)],
                    BLACK.stroke_width(1),
                ),
            ])
        });
        chart.draw_series(whiskers.flatten()).map_err(plot_err)?;
        if k == 1 {
            let labels = series.values.iter().enumerate().filter_map(|(i, v)| {
                let v = (*v)?;
                let (y0, y1) = bar(i);
                let end = series.whiskers[i].map_or(v, |w| w.hi.max(v));
                Some(Text::new(
                    format_value(v),
                    (t(end) + (x1 - x0) * 0.006, (y0 + y1) / 2.0 + 0.25),
                    (FAMILY, 11),
                ))
            });
            chart.draw_series(labels).map_err(plot_err)?;
        }
        Ok(())
    }
}

fn format_value(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

enum Plot {
    Bars(Bars),
    Heat(Heat),
    Links(links::LinksPlot),
    Cost(cost::CostMap),
}

impl Plot {
    fn height(&self) -> u32 {
        match self {
            Plot::Bars(b) => b.height(),
            Plot::Heat(h) => h.height(),
            Plot::Links(l) => l.height(),
            Plot::Cost(m) => m.height(),
        }
    }

    fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()> {
        match self {
            Plot::Bars(b) => b.draw(area),
            Plot::Heat(h) => h.draw(area),
            Plot::Links(l) => l.draw(area),
            Plot::Cost(m) => m.draw(area),
        }
    }

    fn save(&self, dir: &Path, name: &str) -> Result<Vec<PathBuf>> {
        let size = (WIDTH, self.height());
        let svg = dir.join(format!("{name}.svg"));
        self.draw(&SVGBackend::new(&svg, size).into_drawing_area())?;
        let png = dir.join(format!("{name}.png"));
        self.draw(&BitMapBackend::new(&png, size).into_drawing_area())?;
        Ok(vec![svg, png])
    }
}

fn single(c: &Campaign, workload: &str, what: &str, marker: Option<(&str, &str)>) -> Option<Bars> {
    let host = c.primary_host();
    let mut rows: Vec<_> = c
        .rows
        .iter()
        .filter(|r| {
            r.host == host
                && r.workload == workload
                && r.subset == "all"
                && r.threads == 1
                && r.profile != REFERENCE
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let key = |r: &&Row| ratio_order(&r.profile, r.ratio_json);
    rows.sort_by(|a, b| {
        key(a)
            .total_cmp(&key(b))
            .then(a.median_ns.total_cmp(&b.median_ns))
            .then(a.profile.cmp(&b.profile))
    });
    Some(Bars {
        title: title(c, what),
        x_desc: format!(
            "ns per event on host {host} (median of run medians; whiskers: 95% bootstrap CI)"
        ),
        categories: rows.iter().map(|r| r.profile.clone()).collect(),
        series: vec![Series {
            name: workload.to_owned(),
            values: rows.iter().map(|r| Some(r.median_ns)).collect(),
            whiskers: rows.iter().map(|r| Some(r.ci_ns)).collect(),
        }],
        log_x: false,
        marker: marker.and_then(|(w, label)| {
            c.ns(host, w, REFERENCE)
                .map(|v| Marker::new(format!("{label} ({v:.0} ns)"), v))
        }),
    })
}

/// Decode, validate and encode paired ratios to json, with their intervals.
fn ratios(c: &Campaign) -> Option<Bars> {
    let host = c.primary_host();
    let ratio = |w: &str, p: &str| c.row(host, w, p, "all", 1).and_then(|r| r.ratio_json);
    let mut p: Vec<(f64, String)> = c
        .profiles(host)
        .into_iter()
        .filter_map(|p| Some((ratio(Workload::Decode.name(), &p)?.est, p)))
        .collect();
    if p.is_empty() {
        return None;
    }
    p.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let series = |w: &str| Series {
        name: w.to_owned(),
        values: p.iter().map(|(_, p)| ratio(w, p).map(|r| r.est)).collect(),
        whiskers: p
            .iter()
            .map(|(_, p)| ratio(w, p).map(Interval::ci))
            .collect(),
    };
    Some(Bars {
        title: title(c, "Paired ratio to json (subset all)"),
        x_desc:
            "time / json time in the same round (median of run medians; whiskers: 95% bootstrap CI)"
                .to_owned(),
        categories: p.iter().map(|x| x.1.clone()).collect(),
        series: vec![
            series(Workload::Decode.name()),
            series(Workload::Validate.name()),
            series(Workload::Encode.name()),
        ],
        log_x: false,
        marker: Some(Marker::new("json", 1.0)),
    })
}

fn title(c: &Campaign, what: &str) -> String {
    format!(
        "{what} — campaign {}, host {}",
        c.labels.join("+"),
        c.primary_host()
    )
}

fn sizes(c: &Campaign) -> Option<Bars> {
    let host = c.primary_host();
    let mut s: Vec<_> = c
        .side
        .sizes
        .iter()
        .filter(|s| s.host == host && s.subset == "all")
        .collect();
    if s.is_empty() {
        return None;
    }
    s.sort_by(|a, b| {
        a.bytes
            .raw
            .total_cmp(&b.bytes.raw)
            .then(a.profile.cmp(&b.profile))
    });
    let series = |name: &str, column: fn(&SizeBytes) -> f64| Series {
        name: name.to_owned(),
        values: s
            .iter()
            .map(|x| Some(column(&x.bytes) / x.events))
            .collect(),
        whiskers: vec![None; s.len()],
    };
    Some(Bars {
        title: title(c, "Encoded size per event (subset all)"),
        x_desc: "bytes per event".to_owned(),
        categories: s.iter().map(|x| x.profile.clone()).collect(),
        series: vec![
            series("raw", |b| b.raw),
            series("framed", |b| b.framed),
            series("zstd (per event)", |b| b.zstd_event),
        ],
        log_x: false,
        marker: None,
    })
}

fn transport(c: &Campaign) -> Option<Bars> {
    let rows = crate::model::relay::transport_rows(c, c.primary_host());
    if rows.is_empty() {
        return None;
    }
    let series = |m: Mode| Series {
        name: m.name().to_owned(),
        values: rows.iter().map(|r| *r.bytes.get(m)).collect(),
        whiskers: vec![None; rows.len()],
    };
    Some(Bars {
        title: title(
            c,
            "Bytes on the wire per event: REQ to EOSE over a WebSocket",
        ),
        x_desc: "relay-to-client socket bytes per event (frame headers included)".to_owned(),
        categories: rows.iter().map(|r| r.profile.clone()).collect(),
        series: Mode::ALL.into_iter().map(series).collect(),
        log_x: false,
        marker: None,
    })
}

fn filter(c: &Campaign) -> Option<Bars> {
    let host = c.primary_host();
    let rows = crate::model::relay::filter_rows(c, host);
    if rows.is_empty() {
        return None;
    }
    Some(Bars {
        title: title(c, "REQ filter matching on stored events"),
        x_desc: "ns per stored event scanned, one filter (median of run medians; whiskers: 95% bootstrap CI)"
            .to_owned(),
        categories: rows
            .iter()
            .map(|r| format!("{} ({})", r.profile, r.contract()))
            .collect(),
        series: vec![Series {
            name: "filter".to_owned(),
            values: rows.iter().map(|r| Some(r.ns)).collect(),
            whiskers: rows
                .iter()
                .map(|r| c.row(host, &r.workload, &r.profile, "all", 1).map(|x| x.ci_ns))
                .collect(),
        }],
        log_x: false,
        marker: crate::model::relay::filter_reference(c, host)
            .map(|r| Marker::new(format!("filter-event ({:.1} ns)", r.ns), r.ns)),
    })
}

fn select(c: &Campaign) -> Option<Bars> {
    let host = c.primary_host();
    let mut p: Vec<(f64, String)> = c
        .profiles(host)
        .into_iter()
        .filter_map(|p| {
            // Ordered by the paired ratio to the raw-offset floor.
            let v = [
                Workload::SelectChecked.name(),
                Workload::SelectPreverified.name(),
            ]
            .into_iter()
            .find_map(|w| c.ratio(host, w, &p, Workload::SelectRawOffset.name()))?;
            Some((v.est, p))
        })
        .collect();
    if p.is_empty() {
        return None;
    }
    p.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let series = |w: &str| Series {
        name: w.to_owned(),
        values: p.iter().map(|(_, p)| c.ns(host, w, p)).collect(),
        whiskers: p
            .iter()
            .map(|(_, p)| c.row(host, w, p, "all", 1).map(|r| r.ci_ns))
            .collect(),
    };
    Some(Bars {
        title: title(c, "Select (kind + pubkey) vs raw offsets"),
        x_desc: "ns per event (median of run medians; whiskers: 95% bootstrap CI)".to_owned(),
        categories: p.iter().map(|x| x.1.clone()).collect(),
        series: vec![
            series(Workload::SelectChecked.name()),
            series(Workload::SelectPreverified.name()),
        ],
        log_x: false,
        marker: c
            .ns(host, Workload::SelectRawOffset.name(), REFERENCE)
            .map(|v| Marker::new(format!("select-raw-offset ({v:.1} ns)"), v)),
    })
}

fn latency(c: &Campaign) -> Vec<(String, Bars)> {
    let host = c.primary_host();
    let mut workloads: Vec<&str> = c
        .side
        .latency
        .iter()
        .filter(|l| l.host == host)
        .map(|l| l.workload.as_str())
        .collect();
    workloads.sort();
    workloads.dedup();
    workloads
        .into_iter()
        .map(|w| {
            let mut l: Vec<_> = c
                .side
                .latency
                .iter()
                .filter(|l| l.host == host && l.workload == w)
                .collect();
            l.sort_by(|a, b| {
                a.ns.p50
                    .total_cmp(&b.ns.p50)
                    .then(a.profile.cmp(&b.profile))
            });
            let series = |name: &str, at: fn(&LatencyNs) -> f64| Series {
                name: name.to_owned(),
                values: l.iter().map(|x| Some(at(&x.ns))).collect(),
                whiskers: vec![None; l.len()],
            };
            let bars = Bars {
                title: title(c, &format!("Per-event latency, {w}")),
                x_desc: "ns per event (log scale; timer overhead subtracted)".to_owned(),
                categories: l.iter().map(|x| x.profile.clone()).collect(),
                series: vec![
                    series("p50", |n| n.p50),
                    series("p90", |n| n.p90),
                    series("p99", |n| n.p99),
                    series("p99.9", |n| n.p999),
                ],
                log_x: true,
                marker: None,
            };
            (format!("latency-{}", w.replace(['+', '/'], "-")), bars)
        })
        .collect()
}

fn robustness(c: &Campaign) -> Option<Heat> {
    let r = c.robustness.as_ref()?;
    let classes = r.classes();
    Some(Heat {
        title: format!(
            "Robustness: failing cases per subject and case class — {}",
            c.labels.join("+")
        ),
        rows: r.subjects.iter().map(|s| s.subject.clone()).collect(),
        cells: r
            .subjects
            .iter()
            .map(|s| {
                classes
                    .iter()
                    .map(|k| {
                        s.classes.get(k).map(|x| HeatCell {
                            failures: x.failures(*k, s.ours),
                            cases: x.cases(),
                        })
                    })
                    .collect()
            })
            .collect(),
        cols: classes.iter().map(|k| k.name().to_owned()).collect(),
    })
}

/// One sensitivity grid as bars: per profile, its composed size in % of
/// json's at kind-3 shares 0 %, the mix's and 10 %, each at the crawl's
/// median, whiskers over every follow-list median.
fn sensitivity(c: &Campaign, g: &crate::model::sensitivity::Grid) -> Bars {
    use crate::model::mix::CRAWL_MEDIAN_TAGS;
    let at = |share: f64, t: i64| {
        g.cells
            .iter()
            .find(|x| (x.share - share).abs() < 1e-9 && x.median_tags == t)
    };
    let base = *g
        .medians
        .iter()
        .min_by_key(|t| (*t - CRAWL_MEDIAN_TAGS).abs())
        .expect("a grid has medians");
    let shares = [g.shares[0], g.mix_share, g.shares[g.shares.len() - 1]];
    let categories: Vec<String> = g.spans().into_iter().map(|s| s.profile).collect();
    let series = shares
        .iter()
        .map(|&share| {
            let pct = |p: &str, t: i64| at(share, t).and_then(|x| x.ratio(p)).map(|r| r * 100.0);
            Series {
                name: format!("kind-3 share {} %", crate::fmt::fixed(share * 100.0, 2)),
                values: categories.iter().map(|p| pct(p, base)).collect(),
                whiskers: categories
                    .iter()
                    .map(|p| {
                        let v: Vec<f64> = g.medians.iter().filter_map(|&t| pct(p, t)).collect();
                        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                        lo.is_finite().then_some(Ci { lo, hi })
                    })
                    .collect(),
            }
        })
        .collect();
    Bars {
        title: title(
            c,
            &format!(
                "Composed {} size, % of json: bars at {base} p tags, whiskers {}-{} tags",
                g.measure.name(),
                g.medians[0],
                g.medians[g.medians.len() - 1]
            ),
        ),
        x_desc: "% of json's composed bytes".to_owned(),
        categories,
        series,
        log_x: false,
        marker: Some(Marker::new("json", 100.0)),
    }
}

/// Draws every plot whose inputs exist into `dir`; returns the files written.
pub fn write_all(a: &Analysis, dir: &Path) -> Result<Vec<PathBuf>> {
    let c = a.campaign;
    font()?;
    std::fs::create_dir_all(dir)?;
    let mut plots: Vec<(String, Plot)> = Vec::new();
    if let Some(b) = sizes(c) {
        plots.push(("sizes".into(), Plot::Bars(b)));
    }
    if let Some(b) = single(c, Workload::Decode.name(), "Decode (subset all)", None) {
        plots.push(("decode".into(), Plot::Bars(b)));
    }
    if let Some(b) = single(
        c,
        Workload::Validate.name(),
        "Validate: decode + id + BIP-340 (subset all)",
        Some((Workload::IdVerify.name(), "id+verify floor")),
    ) {
        plots.push(("validate".into(), Plot::Bars(b)));
    }
    if let Some(b) = select(c) {
        plots.push(("select".into(), Plot::Bars(b)));
    }
    if let Some(b) = filter(c) {
        plots.push(("filter".into(), Plot::Bars(b)));
    }
    if let Some(b) = transport(c) {
        plots.push(("transport".into(), Plot::Bars(b)));
    }
    if let Some(l) = links::plot(c) {
        plots.push(("links".into(), Plot::Links(l)));
    }
    for (map, json) in a.pick_maps(crate::model::cost::MAP_CELLS) {
        let m = cost::CostMap { map, json };
        plots.push((cost::name(m.map.role), Plot::Cost(m)));
    }
    if let Some(b) = ratios(c) {
        plots.push(("ratios".into(), Plot::Bars(b)));
    }
    for (name, b) in latency(c) {
        plots.push((name, Plot::Bars(b)));
    }
    for g in &c.grids {
        let name = g.measure.name().replace(' ', "-");
        plots.push((format!("sensitivity-{name}"), Plot::Bars(sensitivity(c, g))));
    }
    if let Some(h) = robustness(c) {
        plots.push(("robustness".into(), Plot::Heat(h)));
    }
    let mut files = Vec::new();
    for (name, plot) in &plots {
        files.extend(plot.save(dir, name)?);
    }
    Ok(files)
}
