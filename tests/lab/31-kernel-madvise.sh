#!/usr/bin/env bash
# 31-kernel-madvise — MADV_DONTNEED page by page vs the whole range at once,
# with responders on every other CPU of both packages: each responder CPU
# receives about one IPI per page when zapped page by page, far fewer when
# batched, and none to speak of without responders.
. "$(dirname "$0")/lib.sh"
"$lab_shootdown" madvise 64
