//! `links`: the per-round REQ → EOSE time ratio to json with deflate
//! against link rate (log x, unshaped rightmost), measured round trip.

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{FAMILY, PALETTE, plot_err};
use crate::interval::Interval;
use crate::model::campaign::Campaign;
use crate::model::links::Exchange;
use crate::read::transport::Mode;

/// One line: a point per link.
struct Line {
    name: String,
    points: Vec<Point>,
}

/// A line's value at one link: its ratio and, for a fastest binary
/// profile, the profile's id.
struct Reading {
    ratio: Interval,
    note: Option<String>,
}

/// A line's point: its x and its reading there.
struct Point {
    x: f64,
    ratio: Interval,
    note: Option<String>,
}

/// An x axis tick.
struct Tick {
    label: String,
    x: f64,
}

/// The lines over link rate.
pub(super) struct LinksPlot {
    title: String,
    /// Per link (x: log10 Mbit/s; unshaped a decade past the fastest rate).
    ticks: Vec<Tick>,
    lines: Vec<Line>,
}

/// The plot of `c`'s links results; `None` without them.
pub(super) fn plot(c: &Campaign) -> Option<LinksPlot> {
    let l = crate::model::links::links(c)?;
    let top = l
        .links
        .iter()
        .filter_map(|k| k.rate_mbit)
        .fold(f64::NEG_INFINITY, f64::max);
    let unshaped = if top.is_finite() {
        top.log10() + 1.0
    } else {
        0.0
    };
    let x = |i: usize| l.links[i].rate_mbit.map_or(unshaped, f64::log10);
    let ticks = (0..l.links.len())
        .map(|i| {
            let k = &l.links[i];
            Tick {
                label: k
                    .rate_mbit
                    .map_or("unshaped".to_owned(), |r| format!("{r}")),
                x: x(i),
            }
        })
        .collect();
    let measured: Vec<&Exchange> = l.exchanges.iter().filter(|e| !e.modelled).collect();
    let line = |name: &str, get: &dyn Fn(&Exchange) -> Option<Reading>| Line {
        name: name.to_owned(),
        points: measured
            .iter()
            .filter_map(|e| {
                get(e).map(|r| Point {
                    x: x(e.link),
                    ratio: r.ratio,
                    note: r.note,
                })
            })
            .collect(),
    };
    let json = |ratio: Option<Interval>| {
        Some(Reading {
            ratio: ratio?,
            note: None,
        })
    };
    let best = |m: Mode| {
        move |e: &Exchange| {
            let b = e.best.get(m).as_ref()?;
            Some(Reading {
                ratio: b.vs_json_deflate?,
                note: Some(b.profile.clone()),
            })
        }
    };
    let lines = vec![
        line("json, none", &|e| json(e.json_none)),
        line("json, deflate-ctx", &|e| json(e.json_ctx)),
        line("fastest binary, none", &best(Mode::None)),
        line("fastest binary, deflate", &best(Mode::Deflate)),
        line("fastest binary, deflate-ctx", &best(Mode::DeflateCtx)),
    ];
    Some(LinksPlot {
        title: format!(
            "REQ → EOSE on shaped links, {} events, measured round trip — campaign {}",
            l.events.max,
            c.labels.join("+")
        ),
        ticks,
        lines,
    })
}

const COLORS: [RGBColor; 5] = [
    PALETTE[0],
    PALETTE[1],
    PALETTE[2],
    PALETTE[3],
    RGBColor(0x8c, 0x56, 0x4b),
];

impl LinksPlot {
    pub(super) fn height(&self) -> u32 {
        620
    }

    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()> {
        area.fill(&WHITE).map_err(plot_err)?;
        let xs = self.ticks.iter().map(|t| t.x);
        let (x0, x1) = (
            xs.clone().fold(f64::INFINITY, f64::min) - 0.4,
            xs.fold(f64::NEG_INFINITY, f64::max) + 0.4,
        );
        let y1 = self
            .lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.ratio.hi))
            .fold(1.0, f64::max)
            * 1.12;
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FAMILY, 20))
            .margin(14)
            .x_label_area_size(56)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, 0.0..y1)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_desc("time / json+deflate time, per round (whiskers: 95% CI)")
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 14))
            .draw()
            .map_err(plot_err)?;
        // Tick labels by hand: the rates are not plotters' round numbers.
        for Tick { label, x } in &self.ticks {
            let (px, py) = chart.backend_coord(&(*x, 0.0));
            area.draw(&Text::new(
                label.clone(),
                (px - 4 * label.len() as i32, py + 8),
                (FAMILY, 13),
            ))
            .map_err(plot_err)?;
        }
        let (px, py) = chart.backend_coord(&((x0 + x1) / 2.0, 0.0));
        area.draw(&Text::new(
            "link rate, Mbit/s (log scale; unshaped: the bare veth pair)",
            (px - 200, py + 32),
            (FAMILY, 14),
        ))
        .map_err(plot_err)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x0, 1.0), (x1, 1.0)],
                RED.stroke_width(2),
            )))
            .map_err(plot_err)?
            .label("json, deflate (1)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], RED.stroke_width(2)));
        let k = self.lines.len() as f64;
        for (s, line) in self.lines.iter().enumerate() {
            let color = COLORS[s % COLORS.len()];
            // Lines side by side at each rate, so whiskers do not overlap.
            let dx = (s as f64 - (k - 1.0) / 2.0) * 0.035;
            let pts: Vec<(f64, f64)> = line
                .points
                .iter()
                .map(|p| (p.x + dx, p.ratio.est))
                .collect();
            chart
                .draw_series(std::iter::once(PathElement::new(
                    pts.clone(),
                    color.stroke_width(2),
                )))
                .map_err(plot_err)?
                .label(line.name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], color.stroke_width(2))
                });
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(plot_err)?;
            let whiskers = line.points.iter().map(|p| {
                PathElement::new(
                    vec![(p.x + dx, p.ratio.lo), (p.x + dx, p.ratio.hi)],
                    color.stroke_width(1),
                )
            });
            chart.draw_series(whiskers).map_err(plot_err)?;
            let notes = line.points.iter().filter_map(|p| {
                let id = p.note.as_ref()?;
                Some(Text::new(
                    id.clone(),
                    (p.x + dx + 0.02, p.ratio.est),
                    (FAMILY, 10).into_font().color(&color),
                ))
            });
            chart.draw_series(notes).map_err(plot_err)?;
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
}
