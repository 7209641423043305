#!/bin/sh
# Answers a1, never legal in the opening.
echo "a1 MSG oops"
cat > /dev/null
