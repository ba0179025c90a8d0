#!/usr/bin/env bash
# action/verdict.sh - the action's last step: fails the job when check failed (CHECK_STATUS not 0)
# or the diff met a rule of --fail-on or could not run (DIFF_STATUS not 0 or skipped), saying which.
set -euo pipefail

failed=0
if [ "${CHECK_STATUS:-0}" != 0 ]; then
  echo "robotsmith: check exited ${CHECK_STATUS} (its errors and findings are above, and annotated)"
  failed=1
fi
case ${DIFF_STATUS:-skipped} in
  0 | skipped) ;;
  1) echo "robotsmith: the diff meets a rule of fail-on (the job's summary has the report)"; failed=1 ;;
  *) echo "robotsmith: the diff could not run (exit ${DIFF_STATUS})"; failed=1 ;;
esac
exit $failed
