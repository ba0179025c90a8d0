#!/usr/bin/env bash
# action/base.sh - finds the base branch's record for the diff: BASE_RECORD given as an input (an
# artifact the user downloaded), else the record the cache restored (a push's record, at
# RUNNER_TEMP/robotsmith-record/record.jsonl, where check writes this build's next), moved aside
# to base.jsonl. Writes record= to GITHUB_OUTPUT, empty when there is none.
set -euo pipefail

dir="$RUNNER_TEMP/robotsmith-record"
mkdir -p "$dir"
record=""
if [ -n "${INPUT_BASE_RECORD:-}" ]; then
  if [ ! -f "$INPUT_BASE_RECORD" ]; then
    echo "::error title=robotsmith::base-record: $INPUT_BASE_RECORD is not a file"
    exit 1
  fi
  record=$INPUT_BASE_RECORD
elif [ -f "$dir/record.jsonl" ]; then
  mv "$dir/record.jsonl" "$dir/base.jsonl"
  record="$dir/base.jsonl"
fi
rm -f "$dir/record.jsonl" # never this build's record before check writes it
echo "record=$record" >>"$GITHUB_OUTPUT"
