#!/bin/sh
# Answers with something that is not a move.
echo "hello world"
cat > /dev/null
