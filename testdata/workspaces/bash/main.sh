#!/usr/bin/env bash
# Prints a summary of two rectangles.
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"

small=$(rect_area 2 3)
large=$(rect_area 4 5)
describe "small" "$small"
describe "large" "$large"
echo "unit: $SHAPES_UNIT"
