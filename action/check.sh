#!/usr/bin/env bash
# action/check.sh - robotsmith on the site the workflow's generator built (INPUT_SITE, INPUT_CONFIG):
# with INPUT_BUILD=true (the default), robotsmith build --no-command first, as the deploy runs it
# after the generator, and then check, which finds nothing left to change; with false, check alone,
# for a workflow whose build step ran robotsmith build already or a site robotsmith only checks.
# Under GitHub Actions check's errors and findings are annotations on the pull request
# (INPUT_STRICT: warnings fail too). The site's indexability record goes to
# RUNNER_TEMP/robotsmith-record/record.jsonl, written by build --record (or check --record) in the
# same run, and only when it succeeds; with INPUT_SARIF=true, check's SARIF log to
# RUNNER_TEMP/robotsmith-record/check.sarif. Writes status (build's exit status when it failed,
# else check's), record and sarif (their paths, empty when not written) to GITHUB_OUTPUT and exits
# 0: the diff runs whatever check found, and verdict.sh fails the job.
set -uo pipefail

dir="$RUNNER_TEMP/robotsmith-record"
mkdir -p "$dir"
site=${INPUT_SITE:-.}
common=()
if [ -n "${INPUT_CONFIG:-}" ]; then common+=(--config "$INPUT_CONFIG"); fi
args=(check "${common[@]}")
if [ "${INPUT_STRICT:-false}" = true ]; then args+=(--strict); fi
help=$(robotsmith help check)

record=""
record_args=()
if grep -q -- '--record' <<<"$help"; then
  record="$dir/record.jsonl"
  rm -f "$record" # a run that fails leaves the file as it was: never an earlier run's record
  record_args=(--record "$record")
else
  echo "::notice title=robotsmith::$(robotsmith version) writes no indexability record yet (check --record): no diff"
fi

status=0
if [ "${INPUT_BUILD:-true}" = true ]; then
  # The record of the site as deployed; build's errors are printed (and annotated) here.
  robotsmith build --no-command -q "${common[@]}" "${record_args[@]}" "$site"
  status=$?
  robotsmith "${args[@]}" "$site"
  check=$?
  if [ "$status" = 0 ]; then status=$check; fi
else
  robotsmith "${args[@]}" "${record_args[@]}" "$site"
  status=$?
fi
if [ -n "$record" ] && [ ! -s "$record" ]; then
  record="" # the run failed before it was written
fi

sarif=""
if [ "${INPUT_SARIF:-false}" = true ]; then
  if grep -q -- '--format' <<<"$help"; then
    if robotsmith "${args[@]}" --format sarif "$site" >"$dir/check.sarif" 2>/dev/null || [ -s "$dir/check.sarif" ]; then
      sarif="$dir/check.sarif"
    fi
  else
    echo "::warning title=robotsmith::sarif: $(robotsmith version) cannot write SARIF yet (check --format sarif); nothing uploaded"
  fi
fi

{
  echo "status=$status"
  echo "record=$record"
  echo "sarif=$sarif"
} >>"$GITHUB_OUTPUT"
exit 0
