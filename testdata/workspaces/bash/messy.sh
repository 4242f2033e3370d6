#!/usr/bin/env bash
# Not formatted: shfmt indents the body and spaces the operators.
count_args()  {
if [ "$#" -gt 0 ];then
echo "$#"
fi
}
count_args "$@"
