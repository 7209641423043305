//! The HTML pages: `referee report` (and `--html`) of a match, with the
//! chart of the judge's value over each game, and the page of a
//! tournament. Each page is one self-contained file (data as JSON, style,
//! script and the charting library inline); the numbers on it are
//! computed elsewhere (`stats`, `judge`), the pages only draw them. The
//! page's own assets are in `referee/assets/`. What the pages share, the
//! style sheet and HTML escaping, is here.

pub mod judge_chart;
pub mod report;
pub mod tournament_report;

/// The pages' style sheet.
pub const STYLE: &str = include_str!("../../assets/report.css");

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `x` to one decimal, as the pages show losses.
pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
