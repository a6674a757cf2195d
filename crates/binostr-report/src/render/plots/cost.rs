//! `cost-map-<role>`: which candidate a role picks over link rate × egress
//! price (CPU at its default price), in the role's own unit; a dot marks
//! cells where the other unit picks another candidate.

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{FAMILY, PALETTE, plot_err};
use crate::model::cost::{PickMap, Role};

/// Fill of the JSON pick ("keep JSON").
const KEEP: RGBColor = RGBColor(0xbb, 0xbb, 0xbb);

/// A role's pick map, ready to draw.
pub(super) struct CostMap {
    pub(super) map: PickMap,
    /// Labels of JSON-text candidates.
    pub(super) json: Vec<String>,
}

/// The file stem of `role`'s map.
pub(super) fn name(role: Role) -> String {
    format!("cost-map-{}", role.id())
}

impl CostMap {
    pub(super) fn height(&self) -> u32 {
        560 + 22 * (self.legend().len() as u32 + 1)
    }

    /// The picks in first-seen order, each with its fill.
    fn legend(&self) -> Vec<(String, RGBColor)> {
        let mut k = 0;
        self.map
            .picks()
            .into_iter()
            .map(|l| {
                let color = if self.json.contains(&l) {
                    KEEP
                } else {
                    k += 1;
                    PALETTE[(k - 1) % PALETTE.len()]
                };
                (l, color)
            })
            .collect()
    }

    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()> {
        area.fill(&WHITE).map_err(plot_err)?;
        let legend = self.legend();
        let (area, key) = area.split_vertically(560);
        let m = &self.map;
        let (lx, ly) = (m.links.len(), m.egress.len());
        let x_at = |i: usize| m.links[i].log10();
        let dx = (x_at(lx - 1) - x_at(0)) / (lx - 1).max(1) as f64 / 2.0;
        let dy = (m.egress[ly - 1] - m.egress[0]) / (ly - 1).max(1) as f64 / 2.0;
        let unit = m.role.unit();
        let title = format!(
            "{}: the pick in {} (dot: {} pick another)",
            m.role.name(),
            unit.id(),
            unit.other().id()
        );
        let mut chart = ChartBuilder::on(&area)
            .caption(title, (FAMILY, 20))
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(64)
            .build_cartesian_2d(
                (x_at(0) - dx)..(x_at(lx - 1) + dx),
                (m.egress[0] - dy)..(m.egress[ly - 1] + dy),
            )
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_label_formatter(&|x| format!("{:.0}", 10f64.powf(*x)))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .x_desc("link rate, Mbit/s (log scale)")
            .y_desc("egress price, $/GB")
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 14))
            .draw()
            .map_err(plot_err)?;
        let fill = |l: &str| {
            legend
                .iter()
                .find(|(k, _)| k == l)
                .map_or(WHITE, |(_, c)| *c)
        };
        let mut rects = Vec::new();
        let mut dots = Vec::new();
        for (j, row) in m.cells.iter().enumerate() {
            let y = m.egress[j];
            for (i, cell) in row.iter().enumerate() {
                let x = x_at(i);
                rects.push(Rectangle::new(
                    [(x - dx, y - dy), (x + dx, y + dy)],
                    fill(&cell[0]).filled(),
                ));
                if cell[1] != cell[0] {
                    dots.push(Circle::new((x, y), 2, BLACK.filled()));
                }
            }
        }
        chart.draw_series(rects).map_err(plot_err)?;
        chart.draw_series(dots).map_err(plot_err)?;
        // The key below the map, so it hides no cell.
        let rows = legend.iter().map(|(label, color)| {
            let text = if self.json.contains(label) {
                format!("keep JSON: {label}")
            } else {
                format!("switch: {label}")
            };
            (text, Some(*color))
        });
        let rows = rows.chain(std::iter::once((
            format!(
                "dot: the pick in {} differs (CPU at its default price)",
                unit.other().id()
            ),
            None,
        )));
        for (i, (text, color)) in rows.enumerate() {
            let y = 6 + 22 * i as i32;
            match color {
                Some(c) => key.draw(&Rectangle::new([(90, y), (104, y + 14)], c.filled())),
                None => key.draw(&Circle::new((97, y + 7), 2, BLACK.filled())),
            }
            .map_err(plot_err)?;
            key.draw(&Text::new(text, (112, y), (FAMILY, 13)))
                .map_err(plot_err)?;
        }
        key.present().map_err(plot_err)?;
        Ok(())
    }
}
