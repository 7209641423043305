//! The chart of the judge's value over one game, for the report's game
//! view: an SVG element drawn from the game's analysis
//! ([`crate::judge::mistakes`] finds its mistakes and turning point).

use super::{escape, round1};
use crate::files::analysis_file::GameAnalysis;
use crate::files::record::Side;
use crate::judge::mistakes::{p1_values, turning_point, MISTAKE_DISCS};

/// Chart size and margins, in SVG units (pixels at 100 %).
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 220.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 28.0;
/// The value axis reaches at least this far either side of 0 (discs).
const MIN_RANGE: f64 = 8.0;
/// The players' colours, as in the report's other charts.
const COLORS: [&str; 2] = ["#1f5fbf", "#c0392b"];

/// The chart of a game: the judge's value from p1's side over the move
/// number (the final result at the end), each side's mistakes marked
/// (`<circle class="mistake p1">`, with the move and its loss as a
/// title), the turning point as a dashed line. An SVG element, no script.
pub fn svg(g: &GameAnalysis, names: &[String; 2]) -> String {
    let (values, result) = p1_values(g);
    let last = g.moves.last().map_or(60, |m| m.n).max(60);
    let mut points: Vec<(f64, f64)> = values.iter().map(|&(n, v)| (n as f64, v)).collect();
    if let (Some(r), Some(m)) = (result, g.moves.last()) {
        points.push(((m.n + 1) as f64, r));
    }
    let range = points
        .iter()
        .map(|p| p.1.abs())
        .fold(MIN_RANGE, f64::max)
        .ceil();
    let x = |n: f64| LEFT + (n - 1.0) / (last as f64) * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| TOP + (range - v) / (2.0 * range) * (HEIGHT - TOP - BOTTOM);
    let mut s = format!(
        "<svg class=\"judge-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
         width=\"{WIDTH}\" height=\"{HEIGHT}\" role=\"img\" aria-label=\"judge's value from {}'s side\">",
        escape(&names[0])
    );
    // Axes: 0, +range, -range; moves every 10.
    for v in [range, 0.0, -range] {
        s += &format!(
            "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{y:.1}\" y2=\"{y:.1}\" stroke=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"10\">{v:+}</text>",
            WIDTH - RIGHT,
            if v == 0.0 { "#888" } else { "#e4e4e4" },
            LEFT - 4.0,
            y(v) + 3.0,
            y = y(v),
        );
    }
    for n in (10..=last).step_by(10) {
        s += &format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\">{n}</text>",
            x(n as f64),
            HEIGHT - BOTTOM + 14.0
        );
    }
    s += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\">move (last point: final result)</text>",
        (LEFT + WIDTH - RIGHT) / 2.0,
        HEIGHT - 3.0
    );
    if let Some(Some(t)) = turning_point(g) {
        s += &format!(
            "<line class=\"turning\" data-move=\"{}\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{TOP}\" y2=\"{:.1}\" \
             stroke=\"#555\" stroke-dasharray=\"4 3\"><title>turning point: move {} by {}</title></line>",
            t.n,
            HEIGHT - BOTTOM,
            t.n,
            escape(&names[t.by.index()]),
            x = x(t.n as f64 + 0.5),
        );
    }
    let path: Vec<String> = points
        .iter()
        .map(|&(n, v)| format!("{:.1},{:.1}", x(n), y(v)))
        .collect();
    s += &format!(
        "<polyline class=\"value\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.5\" points=\"{}\"/>",
        path.join(" ")
    );
    for m in g.moves.iter().filter(|m| m.loss >= MISTAKE_DISCS) {
        let v = if m.by == Side::P1 { m.value } else { -m.value };
        s += &format!(
            "<circle class=\"mistake {side}\" data-move=\"{n}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\" fill=\"{color}\">\
             <title>move {n}: {name} played {sq}, losing {loss} (best {best})</title></circle>",
            x(m.n as f64),
            y(v),
            side = m.by,
            n = m.n,
            color = COLORS[m.by.index()],
            name = escape(&names[m.by.index()]),
            sq = m.square,
            loss = round1(m.loss),
            best = m.best,
        );
    }
    s + "</svg>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::mistakes::testing::game;

    #[test]
    fn the_chart_marks_each_mistake_of_each_side_and_the_turning_point() {
        let g = game(
            &[1.0, 2.0, -3.0, -1.0, 4.0, -5.0],
            &[0.0, 2.0, 3.5, 1.9, 0.0, 0.0],
            Some(10),
        );
        let s = svg(&g, &["new<1>".into(), "old".into()]);
        assert!(s.starts_with("<svg") && s.ends_with("</svg>"));
        assert_eq!(s.matches("<circle class=\"mistake p1\"").count(), 1);
        assert_eq!(s.matches("<circle class=\"mistake p2\"").count(), 1);
        assert!(
            s.contains("move 11: new&lt;1&gt; played d3, losing 3.5 (best c4)"),
            "{s}"
        );
        assert!(s.contains("class=\"turning\" data-move=\"11\""), "{s}");
        // Seven points: six positions and the final result.
        let points = s
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert_eq!(points.split(' ').count(), 7);
    }
}
