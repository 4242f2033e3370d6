#!/usr/bin/env bash
# Shared helpers for the shapes scripts.

# Prints the area of a rectangle given its width and height.
rect_area() {
	local width=$1 height=$2
	echo $((width * height))
}

# Prints a one-line, human-readable summary of a shape.
describe() {
	local name=$1 area=$2
	printf '%s with area %s\n' "$name" "$area"
}

export SHAPES_UNIT="cm"
