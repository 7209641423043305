#!/bin/sh
# Plays correctly, then ignores the end of input and hangs.
read -r id; read -r size
while read -r row; do
  i=1; while [ $i -lt 8 ]; do read -r row; i=$((i + 1)); done
  read -r count; read -r move; i=1
  while [ $i -lt "$count" ]; do read -r other; i=$((i + 1)); done
  echo "$move"
done
exec sleep 600
