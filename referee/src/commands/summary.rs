//! `referee summary FILES`: the summary of a match (or the rating list of
//! a tournament) from its games files, merged as after the match.

use super::{output, tournament};
use crate::cli;
use crate::files::games_file::is_tournament;
use crate::files::outputs::{check_writable, write_file};
use crate::files::standing_file::StandingMatcher;
use crate::files::{analysis_file, merge, record};
use crate::judge::mistakes;
use crate::stats::{standing_table, standings, summary};

/// `referee summary FILES`: the merged match's summary, as after a match.
pub fn run(args: &cli::SummaryArgs) -> Result<(), String> {
    if let Some(path) = &args.json {
        check_writable(path).map_err(|e| format!("--json {}: {e}", path.display()))?;
    }
    if is_tournament(&args.files)? {
        return tournament_summary(args);
    }
    // The games go by one at a time: only their tally is kept.
    let mut tally = summary::Tally::default();
    let mut matcher =
        analysis_file::Matcher::for_games(&args.files, &args.analysis, "--analysis FILE")?;
    let mut losses = mistakes::MatchLosses::new(args.empties_buckets.clone());
    let mut standing = StandingMatcher::for_games(&args.files, args.standing.as_deref())?;
    let m = merge::stream(&args.files, |_, _, _, r| {
        tally.add(&r);
        if let Some(g) = matcher.as_mut().and_then(|a| a.game(&r)) {
            losses.add(g);
        }
        if let Some(s) = standing.as_mut() {
            s.game(&r);
        }
    })?;
    let analysis = matcher.map(analysis_file::Matcher::finish).transpose()?;
    let standing = standing.map(StandingMatcher::finish).transpose()?.flatten();
    let gaps = m.gaps();
    if !gaps.is_empty() {
        let what = gaps.describe(m.games.len());
        if !args.partial {
            return Err(format!(
                "{what} (add --partial to summarise the games there are)"
            ));
        }
        output::print(&format!("partial: {what}\n"));
    }
    let s = tally.finish(&m.header);
    output::print(&summary::text(&s));
    if let Some(a) = &analysis {
        output::print(&losses.text(&record::names(&m.header), &a.header.judge.describe()));
    }
    if let Some(s) = &standing {
        output::print(&format!("\n{}", standing_table::text(s)));
    }
    match &args.json {
        Some(path) => {
            let text = serde_json::to_string_pretty(&s).expect("the summary serializes");
            write_file(path, &(text + "\n"), "--json").map_or(Ok(()), Err)
        }
        None => Ok(()),
    }
}

/// `referee summary FILES` of a tournament: its rating list and crosstable.
fn tournament_summary(args: &cli::SummaryArgs) -> Result<(), String> {
    let t = tournament::read(&args.files)?;
    if !t.gaps.is_empty() {
        let what = t.gaps.describe(t.standings.games as usize);
        if !args.partial {
            return Err(format!(
                "{what} (add --partial to summarise the games there are)"
            ));
        }
        output::print(&format!("partial: {what}\n"));
    }
    let s = standings::summarize(&t.header, &t.standings, t.header.anchor_index());
    output::print(&standings::text(&s));
    let mut failures =
        tournament::write_outputs(&t.header, &s, &t.gaps, args.json.as_deref(), None);
    failures.extend(s.unrated.clone());
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("; "))
    }
}
