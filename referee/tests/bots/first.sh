#!/bin/sh
# A correct bot: plays the first listed action every turn.
# Optional $1: "expert" asks for EXPERT mode on the first turn and checks
# that the extra line arrives from then on; "pause" waits 20 ms per move;
# "quit" exits (status 0, no answer) on its third turn.
read -r id; read -r size
mode=$1; turn=0
while read -r row; do
  i=1; while [ $i -lt 8 ]; do read -r row; i=$((i + 1)); done
  if [ "$mode" = expert ] && [ $turn -gt 0 ]; then
    read -r opponent
    case "$opponent" in *';') ;; *) echo "bad opponent line: $opponent" >&2; exit 4 ;; esac
  fi
  read -r count; read -r move; i=1
  while [ $i -lt "$count" ]; do read -r other; i=$((i + 1)); done
  if [ "$mode" = pause ]; then sleep 0.02; fi
  if [ "$mode" = quit ] && [ $turn -eq 2 ]; then exit 0; fi
  if [ "$mode" = expert ] && [ $turn -eq 0 ]; then echo "EXPERT $move MSG d1 hi"; else echo "$move MSG d$turn"; fi
  turn=$((turn + 1))
done
