#!/usr/bin/env bash
# action/check.sh - runs robotsmith check on the site (INPUT_SITE, INPUT_CONFIG, INPUT_STRICT);
# under GitHub Actions its errors and findings are annotations on the pull request. Where this
# robotsmith can (check --record), it writes the site's indexability record to
# RUNNER_TEMP/robotsmith-record/record.jsonl; with INPUT_SARIF=true and check --format, SARIF to
# RUNNER_TEMP/robotsmith-record/check.sarif. Writes status (check's exit status), record and sarif
# (their paths, empty when not written) to GITHUB_OUTPUT and exits 0: the diff runs whatever check
# found, and verdict.sh fails the job.
set -uo pipefail

dir="$RUNNER_TEMP/robotsmith-record"
mkdir -p "$dir"
args=(check)
if [ "${INPUT_STRICT:-false}" = true ]; then args+=(--strict); fi
if [ -n "${INPUT_CONFIG:-}" ]; then args+=(--config "$INPUT_CONFIG"); fi
help=$(robotsmith help check)

record=""
if grep -q -- '--record' <<<"$help"; then
  record="$dir/record.jsonl"
  args+=(--record "$record")
else
  echo "::notice title=robotsmith::$(robotsmith version) writes no indexability record yet (check --record): no diff"
fi

robotsmith "${args[@]}" "${INPUT_SITE:-.}"
status=$?
if [ -n "$record" ] && [ ! -s "$record" ]; then
  record="" # check stopped before it was written
fi

sarif=""
if [ "${INPUT_SARIF:-false}" = true ]; then
  if grep -q -- '--format' <<<"$help"; then
    sarif_args=("${args[@]}")
    for i in "${!sarif_args[@]}"; do # the record is written once, by the run above
      if [ "${sarif_args[$i]}" = --record ]; then unset 'sarif_args[i]' 'sarif_args[i+1]'; fi
    done
    if robotsmith "${sarif_args[@]}" --format sarif "${INPUT_SITE:-.}" >"$dir/check.sarif" 2>/dev/null || [ -s "$dir/check.sarif" ]; then
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
