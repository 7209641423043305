#!/bin/sh
# A correct bot (the first listed action every turn) that grows its own
# memory to about $1 MB (default 64) before its first answer: the
# --memory-mb fault. awk is exec'd, so it is the bot process itself.
# mawk reads a pipe in blocks unless told to read it line by line.
case "$(awk -W version 2>&1)" in *mawk*) interactive="-W interactive" ;; esac
exec awk $interactive -v mb="${1:-64}" '
NR <= 2 { next }
state == 0 { if (++row == 8) { state = 1; row = 0 } next }
state == 1 { count = $1; n = 0; state = 2; next }
state == 2 {
  if (++n == 1) move = $1
  if (n == count) {
    if (!grown) { s = "x"; while (length(s) < mb * 1048576) s = s s; grown = 1 }
    print move " MSG m"; fflush(); state = 0
  }
}'
