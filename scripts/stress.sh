#!/usr/bin/env bash
# The loaded-machine stress run: a referee match while CPU-burning processes
# share the machine, then the timing figures that matter for CodinGame.
#
#   scripts/stress.sh [--burners N] [--games N] [--seed S] [--budget-ms MS]
#                     [--p1 CMD] [--p2 CMD] [--out DIR] [-- REFEREE-ARGS...]
#
#   --burners N    busy-loop processes started beside the match (default 2)
#   --games N      games of the match (default 40, about 2,400 moves)
#   --seed S       match seed (default 1)
#   --budget-ms MS the bots' own hard budget of a later turn, for the
#                  "own clock" figures (default 130, time::DEFAULT_TURN_BUDGET_MS)
#   --p1/--p2 CMD  the bots (default: target/release/othello for both)
#   --out DIR      where games.jsonl and summary.json go (default: a new
#                  directory under /tmp, printed)
#   -- ARGS        passed on to the referee (for example --concurrency 1)
#
# The referee keeps its defaults: CodinGame's limits (150 ms a later turn,
# 2000 ms the first), concurrency = the number of cores, random 6-ply
# openings. Nothing is asserted: the figures are printed, to be recorded
# (docs/journal/search.md, "Under load"), each timeout on its own line with the
# bot's own time when its late answer's MSG gives one. The burners are
# killed on every exit path. Builds first, so that no build runs beside the
# match.
set -euo pipefail

usage() {
    sed -n '4,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
burners=2
games=40
seed=1
budget=130
p1="$root/target/release/othello"
p2="$root/target/release/othello"
out=""
extra=()
number() { [[ "$2" =~ ^[0-9]+$ ]] || { echo "stress.sh: $1 needs a number, not '$2'" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
    case "$1" in
    --burners | --games | --seed | --budget-ms | --p1 | --p2 | --out)
        [ $# -ge 2 ] || { echo "stress.sh: $1 needs a value" >&2; usage; }
        case "$1" in
        --burners) number "$1" "$2"; burners=$2 ;;
        --games) number "$1" "$2"; games=$2 ;;
        --seed) number "$1" "$2"; seed=$2 ;;
        --budget-ms) number "$1" "$2"; budget=$2 ;;
        --p1) p1=$2 ;;
        --p2) p2=$2 ;;
        --out) out=$2 ;;
        esac
        shift 2
        ;;
    --)
        shift
        extra=("$@")
        break
        ;;
    -h | --help) usage ;;
    *)
        echo "stress.sh: unknown argument '$1'" >&2
        usage
        ;;
    esac
done

(cd "$root" && cargo build --quiet --release -p othello -p referee)
if [ -z "$out" ]; then
    out="$(mktemp -d /tmp/stress.XXXXXX)"
fi
mkdir -p "$out"
[ ! -e "$out/games.jsonl" ] || { echo "stress.sh: $out/games.jsonl exists; choose another --out" >&2; exit 2; }

pids=()
stop_burners() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap stop_burners EXIT
for _ in $(seq 1 "$burners"); do
    sh -c 'while :; do :; done' &
    pids+=("$!")
done

echo "stress.sh: $burners burners on $(nproc) cores; $games games, seed $seed; output in $out"
status=0
"$root/target/release/referee" --p1 "$p1" --p2 "$p2" --games "$games" --seed "$seed" \
    --random-openings 6 --games-out "$out/games.jsonl" --json "$out/summary.json" \
    ${extra[@]+"${extra[@]}"} || status=$?
stop_burners
trap - EXIT

# One move object per record: "ms", "limit_ms" and "msg" (the bot's own
# elapsed time is the number that ends its MSG); a late answer is a fault
# with "overrun_ms".
awk -v budget="$budget" '
function field(s, name,    re) {
    re = "\"" name "\":(\"[^\"]*\"|[-0-9.]+)"
    if (!match(s, re)) return ""
    s = substr(s, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
    gsub(/"/, "", s)
    return s
}
/"game":/ {
    n = split($0, parts, /\},\{|\[\{|\}\]/)
    for (i = 1; i <= n; i++) {
        p = parts[i]
        if (p !~ /"limit_ms":/) continue
        ms = field(p, "ms") + 0; limit = field(p, "limit_ms") + 0; msg = field(p, "msg")
        moves++
        if (limit > 1000) { if (ms > first) first = ms; continue }
        later++
        if (ms > worst) worst = ms
        if (ms > 120) over120++
        # The last word of the MSG, when unsigned, is the time of the
        # turn in milliseconds (a signed one is the score: no time fitted).
        if (match(msg, / [0-9]+(ms)?$/)) {
            own = substr(msg, RSTART + 1, RLENGTH - 1) + 0
            if (own - budget > own_over) own_over = own - budget
            if (ms - own > outside) outside = ms - own
        }
    }
    if (match($0, /"kind":"timeout"/)) {
        timeouts++
        o = field($0, "overrun_ms")
        if (o != "" && 150 + o > worst) worst = 150 + o
        # The referee quotes a late answer; the time at the end of its MSG
        # tells an overrun of the bot from a wait outside its clock.
        own = "no late answer quoted"
        if (match($0, /the answer was \\"[^"\\]*\\"/)) {
            late = substr($0, RSTART + 17, RLENGTH - 19)
            own = "no time in its MSG"
            if (match(late, / [0-9]+(ms)?$/)) own = "its own clock " (substr(late, RSTART + 1, RLENGTH - 1) + 0) " ms"
        }
        if (o == "") o = "?"; else o = sprintf("%.1f", o)
        detail = detail sprintf("  timeout in game %s: %s ms after the limit; %s\n", field($0, "game"), o, own)
    }
}
END {
    printf "moves %d (later turns %d); timeouts %d\n", moves, later, timeouts
    printf "%s", detail
    printf "worst later reply %.1f ms (referee clock); replies over 120 ms: %d\n", worst, over120
    printf "worst first turn %.1f ms\n", first
    printf "worst overrun of the bot'"'"'s own %d ms budget: %d ms (its MSG)\n", budget, own_over
    printf "worst time outside the bot'"'"'s clock (referee ms - MSG ms): %.1f ms\n", outside
}' "$out/games.jsonl"
exit "$status"
