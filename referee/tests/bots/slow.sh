#!/bin/sh
# Answers its first turn at once, then 300 ms late (within the referee's
# grace, so the overrun is measured), saying so in its MSG.
read -r id; read -r size; turn=0
while read -r row; do
  i=1; while [ $i -lt 8 ]; do read -r row; i=$((i + 1)); done
  read -r count; read -r move; i=1
  while [ $i -lt "$count" ]; do read -r other; i=$((i + 1)); done
  if [ $turn -gt 0 ]; then sleep 0.3; echo "$move MSG slept 300ms"; else echo "$move"; fi
  turn=$((turn + 1))
done
