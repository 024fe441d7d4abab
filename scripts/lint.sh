#!/usr/bin/env bash
# lint.sh — static analysis, 0 findings expected (CI runs it):
#   cppcheck (warning, performance, portability) and clang-tidy with the
#   agreed checks of .clang-tidy, over every file the build compiles
#   (build-lint/compile_commands.json; the C++ wrapper included); and the
#   shape of the tree (scripts/layers.sh: rooms, exports, function sizes).
# Exit 0 clean, 1 findings (listed), 2 usage.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "$*" in
"") ;;
-h|--help) sed -n '2,7p' "$0"; exit 0 ;;
*) SB_DIE_RC=2 sb_die "usage: lint.sh (takes no arguments)" ;;
esac

sb_need_pkgs $SB_BUILD_PKGS cppcheck clang-tidy
dir=$SB_ROOT/build-lint
sb_build "$dir" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
log=$dir/lint.log
: >"$log"
rc=0
cppcheck --project="$dir/compile_commands.json" --enable=warning,performance,portability \
	--inline-suppr --quiet --suppress=missingIncludeSystem -j"$(nproc)" \
	--error-exitcode=1 >>"$log" 2>&1 || rc=1
# clang-tidy: one file per process, nproc at a time; findings are "warning:"
python3 -c 'import json,sys; [print(e["file"]) for e in json.load(open(sys.argv[1]))]' \
	"$dir/compile_commands.json" | sort -u |
	xargs -P"$(nproc)" -n1 clang-tidy -p "$dir" --quiet >>"$log" 2>/dev/null || true
bash "$SB_ROOT/scripts/layers.sh" --build="$dir" || rc=1
if grep -qE "warning:|error:|style:|performance:|portability:" "$log"; then
	grep -E "warning:|error:|style:|performance:|portability:" "$log" | sort -u >&2
	rc=1
fi
[ "$rc" -eq 0 ] && echo "lint.sh: cppcheck and clang-tidy: 0 findings" >&2 ||
	echo "lint.sh: findings above (full log: $log)" >&2
exit "$rc"
