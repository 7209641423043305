#!/bin/sh
# A correct bot that leaves two processes outside its process group: one in
# a new session, one orphaned in a new session (its parent exits at once).
# Appends their pids to the file $1, then plays like first.sh.
setsid sleep 600 &
echo "$!" >> "$1"
sh -c 'setsid sleep 600 & echo "$!" >> "$1"' sh "$1"
exec "$(dirname "$0")/first.sh"
