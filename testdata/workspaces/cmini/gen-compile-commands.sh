#!/bin/sh
# Writes compile_commands.json for this fixture, with the absolute paths clangd requires
# (a relative "directory" makes clangd 14 ignore the entry and fall back to default flags).
# The flags come from compile_flags.txt, which clangd uses on its own when no
# compile_commands.json exists -- but only a compilation database makes clangd index every
# file in the background, so cross-file definitions and references are complete on the
# first query instead of depending on which files happened to be opened before.
# Run it wherever the workspace lives (e.g. after copying it to a temporary directory).
set -eu
cd "$(dirname "$0")"
dir=$(pwd -P)
case $dir in
  *\"* | *\\*) echo "gen-compile-commands: unsupported character in $dir" >&2; exit 1 ;;
esac
args='"cc"'
while IFS= read -r flag || [ -n "$flag" ]; do
  [ -n "$flag" ] && args="$args, \"$flag\""
done < compile_flags.txt
out=compile_commands.json.tmp.$$
{
  printf '[\n'
  sep=''
  for f in *.c; do
    printf '%s  {"directory": "%s", "file": "%s/%s", "arguments": [%s, "-c", "%s"]}' \
      "$sep" "$dir" "$dir" "$f" "$args" "$f"
    sep=',
'
  done
  printf '\n]\n'
} > "$out"
mv "$out" compile_commands.json
