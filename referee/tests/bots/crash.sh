#!/bin/sh
# Dies on its first turn with a message on stderr.
read -r id; read -r size; read -r row
echo "panicked at 'index out of bounds'" >&2
exit 3
