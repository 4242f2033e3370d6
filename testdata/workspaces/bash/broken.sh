#!/usr/bin/env bash
# Has exactly one problem: an unquoted variable.
greeting="hello world"
echo $greeting
