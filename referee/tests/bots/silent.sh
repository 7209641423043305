#!/bin/sh
# Exits with status 0 without ever answering.
exit 0
