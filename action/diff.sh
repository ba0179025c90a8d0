#!/usr/bin/env bash
# action/diff.sh - compares the base branch's record (BASE_RECORD) with this build's (NEW_RECORD):
# robotsmith diff --markdown, which under GitHub Actions also appends the report to the job's
# summary and annotates each rule of --fail-on (INPUT_FAIL_ON) it meets. The report is kept in
# RUNNER_TEMP/robotsmith-record/diff.md for a pull-request comment. Writes status (diff's exit
# status, or skipped when a record is missing) and report to GITHUB_OUTPUT, and exits 0:
# verdict.sh fails the job.
set -uo pipefail

out() { echo "$1" >>"$GITHUB_OUTPUT"; }

if [ -z "${NEW_RECORD:-}" ]; then
  out "status=skipped"
  out "report="
  exit 0
fi
if [ -z "${BASE_RECORD:-}" ]; then
  echo "::notice title=robotsmith::no record of the base branch to compare with: a run on a push to it keeps one (cache), or give base-record"
  out "status=skipped"
  out "report="
  exit 0
fi

report="$RUNNER_TEMP/robotsmith-record/diff.md"
robotsmith diff --markdown --fail-on "${INPUT_FAIL_ON:-home,noindex:10%}" "$BASE_RECORD" "$NEW_RECORD" >"$report"
status=$?
out "status=$status"
out "report=$report"
exit 0
