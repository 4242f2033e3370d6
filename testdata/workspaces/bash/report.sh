#!/usr/bin/env bash
# Prints a report of one square.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

total=$(rect_area 7 7)
describe "square" "$total"
