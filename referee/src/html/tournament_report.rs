//! The HTML report of a tournament (`referee report` of its games files,
//! or `--html`): one self-contained page with the rating list, the
//! crosstable, the faults and the settings. It is plain HTML made here,
//! with the match report's style and no script.

use super::{escape, STYLE};
use crate::files::merge::Gaps;
use crate::files::record::TournamentHeader;
use crate::stats::standings::{self, Standings, TournamentSummary};
use std::fmt::Write as _;
use std::path::Path;

/// `referee report FILES -o OUT` of a tournament, once its files are read
/// ([`crate::commands::tournament::read`]).
///
/// # Errors
/// An unwritable page. Games that cannot be rated are not an error here:
/// the page says why.
pub fn write(
    header: &TournamentHeader,
    results: &Standings,
    gaps: &Gaps,
    output: &Path,
) -> Result<(), String> {
    let summary = standings::summarize(header, results, header.anchor_index());
    let page = html(header, &summary, gaps);
    std::fs::write(output, page).map_err(|e| format!("{}: {e}", output.display()))?;
    eprintln!("referee: {} games -> {}", results.games, output.display());
    Ok(())
}

fn opt(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".into(), |v| format!("{v:.digits$}"))
}

/// The page.
pub fn html(header: &TournamentHeader, s: &TournamentSummary, gaps: &Gaps) -> String {
    let order = standings::ranked(s);
    let title = format!("Tournament ({}) of {} bots", s.format.name(), s.bots.len());
    let mut b = String::new();
    let _ = write!(
        b,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} - referee report</title>\n<style>{STYLE}\n\
         td.num {{ text-align: right; font-variant-numeric: tabular-nums; }}\n\
         td.self {{ background: #eee; }}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    if !gaps.is_empty() {
        let _ = writeln!(
            b,
            "<p id=\"partial\" class=\"warning\">Partial tournament: {}</p>",
            escape(&gaps.describe(s.games as usize))
        );
    }
    let _ = writeln!(
        b,
        "</header>\n<main>\n<section id=\"ratings\">\n<h2>Rating list</h2>"
    );
    match &s.unrated {
        None => {
            let _ = writeln!(
                b,
                "<p class=\"note\" id=\"model\">{}. Prior: {}. Anchor: {} = 0.</p>",
                escape(standings::MODEL),
                escape(&s.prior.description),
                escape(&s.anchor)
            );
            for note in standings::extreme_legend(s).iter().chain(&s.note) {
                let _ = writeln!(b, "<p class=\"note\">{}</p>", escape(note));
            }
        }
        Some(why) => {
            let _ = writeln!(
                b,
                "<p id=\"unrated\" class=\"warning\">No rating list: {}</p>",
                escape(why)
            );
        }
    }
    let _ = writeln!(
        b,
        "<table id=\"rating-list\">\n<thead><tr><th>rank</th><th>bot</th><th>Elo</th>\
         <th>&plusmn; 95%</th><th>games</th><th>W-L-D</th><th>score</th><th>draws</th>\
         <th>command</th></tr></thead>\n<tbody>"
    );
    for &i in &order {
        let bot = &s.bots[i];
        let draws = (bot.games > 0).then(|| bot.draws as f64 * 100.0 / bot.games as f64);
        let _ = writeln!(
            b,
            "<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}-{}-{}</td>\
             <td class=\"num\">{} %</td><td class=\"num\">{} %</td><td><code>{}</code></td></tr>",
            bot.rank,
            escape(&bot.name),
            escape(&standings::elo_text(bot)),
            opt(bot.elo_error, 1),
            bot.games,
            bot.wins,
            bot.losses,
            bot.draws,
            opt(bot.score.map(|x| x * 100.0), 1),
            opt(draws, 1),
            escape(&bot.command)
        );
    }
    let _ = writeln!(
        b,
        "</tbody></table>\n</section>\n<section id=\"crosstable-section\">\n\
         <h2>Crosstable</h2>\n<p class=\"note\">The row's points against the column, of the \
         games they played (wins-losses-draws in the tooltip).</p>\n<table id=\"crosstable\">\n\
         <thead><tr><th></th>"
    );
    for &j in &order {
        let _ = write!(b, "<th>{}</th>", escape(&s.bots[j].name));
    }
    let _ = writeln!(b, "</tr></thead>\n<tbody>");
    for &i in &order {
        let _ = write!(b, "<tr><th>{}</th>", escape(&s.bots[i].name));
        for &j in &order {
            let c = &s.crosstable[i][j];
            if i == j {
                let _ = write!(b, "<td class=\"self\"></td>");
            } else {
                let _ = write!(
                    b,
                    "<td class=\"num\" title=\"{}-{}-{}\">{}</td>",
                    c.wins,
                    c.losses,
                    c.draws,
                    standings::cell_text(c)
                );
            }
        }
        let _ = writeln!(b, "</tr>");
    }
    let _ = writeln!(
        b,
        "</tbody></table>\n</section>\n<section id=\"faults-section\">\n<h2>Faults</h2>\n\
         <table id=\"faults\">\n<thead><tr><th>bot</th><th>timeouts</th><th>crashes</th>\
         <th>illegal</th><th>unreadable</th><th>no output</th><th>over memory</th>\
         <th>killed after the end</th></tr></thead>\n<tbody>"
    );
    for &i in &order {
        let f = &s.bots[i].faults;
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&s.bots[i].name),
            f.timeouts,
            f.crashes,
            f.illegal,
            f.unreadable,
            f.no_output,
            f.memory,
            f.killed_after_end
        );
    }
    let memory = if header.memory_mb == 0 {
        "none".to_string()
    } else {
        format!("{} MB", header.memory_mb)
    };
    let settings = [
        ("format", s.format.name().to_string()),
        ("games", format!("{} of {}", s.games, header.games())),
        ("games per pair", header.games_per_pair.to_string()),
        (
            "time limits",
            format!(
                "first turn {} ms, then {} ms, margin {} ms",
                header.first_turn_ms, header.turn_ms, header.margin_ms
            ),
        ),
        ("memory limit", memory),
        ("openings", header.openings.clone()),
        ("seed", header.seed.to_string()),
        (
            "shard",
            header
                .shard
                .map_or("none (the whole tournament)".into(), |s| s.to_string()),
        ),
    ];
    let _ = writeln!(
        b,
        "</tbody></table>\n</section>\n<section id=\"settings-section\">\n<h2>Settings</h2>\n\
         <table id=\"settings\">"
    );
    for (k, v) in settings {
        let _ = writeln!(b, "<tr><th>{}</th><td>{}</td></tr>", k, escape(&v));
    }
    let _ = writeln!(b, "</table>\n</section>\n</main>\n</body>\n</html>");
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::record::testing::record;
    use crate::files::record::testing::tournament_header as header;
    use crate::files::record::Format;
    use crate::files::record::Side;
    use crate::stats::standings::Standings;

    #[test]
    fn the_page_has_the_list_and_the_crosstable() {
        let mut h = header(3, Format::RoundRobin, 2);
        h.bots[2].name = "<b>".into();
        let mut st = Standings::new(3);
        st.add((0, 1), &record(1, Some(Side::P1), 10.0));
        st.add((0, 1), &record(2, None, 10.0));
        st.add((0, 2), &record(3, Some(Side::P2), 10.0));
        st.add((0, 2), &record(4, Some(Side::P1), 10.0));
        st.add((1, 2), &record(5, Some(Side::P1), 10.0));
        st.add((1, 2), &record(6, Some(Side::P2), 10.0));
        let s = standings::summarize(&h, &st, 0);
        assert_eq!(s.unrated, None);
        let page = html(&h, &s, &Gaps::default());
        assert!(page.contains("id=\"rating-list\""));
        assert!(page.contains("<th>&lt;b&gt;</th>"), "names are escaped");
        assert!(page.contains(">1.5/2</td>"), "{page}");
        assert!(!page.contains("<b>"));
        assert!(!page.contains("id=\"partial\""));
    }
}
