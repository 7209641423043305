#!/bin/sh
# Never answers, and leaves a child behind that must be killed too. With an
# argument, appends its own pid and its child's to that file.
sleep 600 &
[ -n "$1" ] && echo "$$ $!" >> "$1"
sleep 600
