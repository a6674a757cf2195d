//! The robustness heat map: failing cases per subject and case class.

use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{FAMILY, plot_err};

/// A profile × case-class grid of failing robustness cases.
pub(super) struct Heat {
    pub(super) title: String,
    pub(super) rows: Vec<String>,
    pub(super) cols: Vec<String>,
    /// Per row, per column; `None` where the class does not apply.
    pub(super) cells: Vec<Vec<Option<HeatCell>>>,
}

/// One subject's cases of one class.
pub(super) struct HeatCell {
    /// Failing cases.
    pub(super) failures: u64,
    /// Every case.
    pub(super) cases: u64,
}

impl Heat {
    pub(super) fn height(&self) -> u32 {
        170 + 22 * self.rows.len() as u32
    }

    pub(super) fn draw<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> Result<()> {
        area.fill(&WHITE).map_err(plot_err)?;
        let (n, m) = (self.rows.len(), self.cols.len());
        let label_width = self
            .rows
            .iter()
            .map(|c| c.len() as u32 * 8 + 16)
            .max()
            .unwrap_or(40);
        let mut chart = ChartBuilder::on(area)
            .caption(&self.title, (FAMILY, 20))
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(label_width)
            .build_cartesian_2d(-0.5..(m as f64 - 0.5), -0.5..(n as f64 - 0.5))
            .map_err(plot_err)?;
        let pick = |labels: &[String], v: f64, flip: bool| {
            let j = v.round();
            let len = labels.len();
            if (v - j).abs() < 1e-6 && j >= 0.0 && (j as usize) < len {
                let j = j as usize;
                labels[if flip { len - 1 - j } else { j }].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(m)
            .y_labels(n)
            .x_label_formatter(&|x| pick(&self.cols, *x, false))
            .y_label_formatter(&|y| pick(&self.rows, *y, true))
            .x_desc("case class (cell: failing cases; green = none)")
            .label_style((FAMILY, 13))
            .axis_desc_style((FAMILY, 14))
            .draw()
            .map_err(plot_err)?;
        let mut rects = Vec::new();
        let mut texts = Vec::new();
        for (i, row) in self.cells.iter().enumerate() {
            let y = (n - 1 - i) as f64;
            for (j, cell) in row.iter().enumerate() {
                let x = j as f64;
                let (color, text) = match cell {
                    None => (RGBColor(0xdd, 0xdd, 0xdd), String::from("n/a")),
                    Some(HeatCell { failures: 0, .. }) => {
                        (RGBColor(0x8f, 0xd1, 0x8f), String::from("0"))
                    }
                    Some(HeatCell { failures, cases }) => {
                        let share = (*failures as f64 / (*cases).max(1) as f64).clamp(0.0, 1.0);
                        let fade = (200.0 * (1.0 - share.sqrt())) as u8;
                        (RGBColor(0xe0, fade, fade), failures.to_string())
                    }
                };
                rects.push(Rectangle::new(
                    [(x - 0.48, y - 0.45), (x + 0.48, y + 0.45)],
                    color.filled(),
                ));
                texts.push(Text::new(text, (x - 0.1, y + 0.25), (FAMILY, 12)));
            }
        }
        chart.draw_series(rects).map_err(plot_err)?;
        chart.draw_series(texts).map_err(plot_err)?;
        area.present().map_err(plot_err)?;
        Ok(())
    }
}
