#!/usr/bin/env python3
"""Openings for endgame matches: positions of real games, cut where a number of
empties remain, kept when the games' judge puts them near a draw.

    scripts/endgame-openings.py [--empties 26,24] [--within 6] GAMES:ANALYSIS ...

GAMES is a referee games file (`referee --games-out`), ANALYSIS its
`referee analyze` file. Each game is replayed to each count of empties (the
games with a pass before that point are left out); its position is kept when
the judge's value there is at most WITHIN discs from a draw. Transcripts print one per line, the counts in the order given,
duplicates dropped, each with the count and the judge's value as a comment
(`referee --openings` reads the file). docs/endgame.md, "Endgame matches".
"""

import argparse
import json
import sys


def fail(message):
    sys.exit(f"endgame-openings: {message}")


def read_jsonl(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    rows = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError as e:
            fail(f"{path}, line {number}: not JSON ({e.msg})")
    return rows


def cuts(games_path, analysis_path, counts):
    """(count, |value|, transcript) of every game's position at each count."""
    games = {n: g for n, g in read_jsonl(games_path) if "moves" in g}
    for number, a in read_jsonl(analysis_path):
        if "moves" not in a:
            continue
        game = games.get(a.get("line"))
        if game is None:
            fail(f"{analysis_path}, line {number}: its game (line {a.get('line')}) is not in {games_path}")
        opening = game.get("opening") or ""
        plies = [opening[i : i + 2] for i in range(0, len(opening), 2)]
        moves = a["moves"]
        if moves and moves[0]["n"] != len(plies) + 1:
            fail(f"{analysis_path}, line {number}: its first move is not the one after the opening")
        plies += [m["square"] for m in moves]
        by_ply = {m["n"]: m for m in moves}
        for count in counts:
            played = 60 - count
            judged = by_ply.get(played + 1)
            first = len(plies) - len(moves) + 1
            straight = all(k in by_ply for k in range(first, played + 1))
            if judged is None or not straight or any(len(p) != 2 for p in plies[:played]):
                continue
            yield count, abs(judged["value"]), "".join(plies[:played])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--empties", default="26,24", help="counts of empties, comma-separated (default 26,24)")
    parser.add_argument("--within", type=float, default=6.0, help="largest |judge value| kept, discs (default 6)")
    parser.add_argument("files", nargs="+", metavar="GAMES:ANALYSIS")
    o = parser.parse_args()
    try:
        counts = [int(c) for c in o.empties.split(",")]
    except ValueError:
        fail(f"--empties {o.empties}: not a list of numbers")
    if any(not 1 <= c <= 59 for c in counts):
        fail(f"--empties {o.empties}: each count must be 1-59")
    rows = []
    for pair in o.files:
        games, sep, analysis = pair.partition(":")
        if not sep:
            fail(f"{pair}: expected GAMES:ANALYSIS")
        rows += cuts(games, analysis, counts)
    seen = set()
    for count in counts:
        for c, value, transcript in rows:
            if c == count and value <= o.within and transcript not in seen:
                seen.add(transcript)
                print(f"{transcript} # {count} empties, judge {value:.1f}")


if __name__ == "__main__":
    main()
