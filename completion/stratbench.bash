# bash completion for stratbench(1).  Installed as
# <prefix>/share/bash-completion/completions/stratbench.
#
# Nothing here is a frozen list: commands come from `stratbench help`,
# options (with their choices) from `stratbench COMMAND --help`, families,
# strategies and locks from `stratbench list`, counters from `stratbench
# counters`, metrics from the results named on the line, all asked of the
# stratbench being completed at completion time; only the placement
# keywords, and the metrics offered before any results are named, are
# spelled out.

# _stratbench_list [FAMILY]: registered names (of one family, or all)
_stratbench_list() {
	"$1" list 2>/dev/null | awk -v fam="${2-}" '
		/^[^ ]/ { f = $1 }
		/^  [^ ]/ && (fam == "" || f == fam) { print $1 }'
}

# _stratbench_metrics WORD...: the numbers of the first results named
# among the words (a directory's gbench.json, or a JSON file), else those
# every run has
_stratbench_metrics() {
	local w f=
	for w in "$@"; do
		w=${w/#\~/$HOME}
		if [[ $w != -* && -f $w/gbench.json ]]; then f=$w/gbench.json; break; fi
		if [[ $w != -* && $w == *.json && -f $w ]]; then f=$w; break; fi
	done
	if [ -z "$f" ]; then
		printf '%s\n' ops_per_s ns_per_op real_time cpu_time
		return
	fi
	# "name": number, inside "benchmarks"; not Google Benchmark's indices
	awk '/"benchmarks"/ { b = 1 } b && /^ *"[^"]+": *-?[0-9.]/ {
		sub(/^ *"/, ""); sub(/".*/, ""); print }' "$f" |
		grep -vxE 'family_index|per_family_instance_index|repetition_index|repetitions|threads|iterations' |
		awk '!seen[$0]++'
}

_stratbench() {
	local line cur sb cmd pre opt val head c
	local -a w cands=()
	line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
	read -ra w <<<"$line"
	[[ -z $line || $line == *[[:space:]] ]] && w+=("")
	cur=${w[${#w[@]} - 1]}	# the whole word: bash splits it at = and :
	sb=${w[0]/#\~/$HOME}
	COMPREPLY=()
	command -v "$sb" >/dev/null 2>&1 || return 0

	if [ "${#w[@]}" -le 2 ]; then	# the command
		cands=(--help --version $("$sb" help 2>/dev/null |
			awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { exit }'))
	else
		cmd=${w[1]}
		case $cur in
		--*=*)
			opt=${cur%%=*} val=${cur#*=}
			head=
			[[ $val == *,* ]] && head=${val%,*},	# comma lists: complete the last
			case $opt in
			--strategy|--ab) cands=($(_stratbench_list "$sb")) ;;	# --ab=A,B: strategies
			--lock) cands=(all $(_stratbench_list "$sb" lock)) ;;
			--reference)	# [FAMILY:]STRATEGY[,...]: after FAMILY:, its names
				c=${val##*,}
				if [[ $c == *:* ]]; then
					cands=($(_stratbench_list "$sb" "${c%%:*}" | sed "s/^/${c%%:*}:/"))
				else
					cands=($(_stratbench_list "$sb") window: lock: shootdown:)
				fi ;;
			# two drivers may share a family (shootdown): each once
			--family) cands=($("$sb" list 2>/dev/null | awk '/^[^ ]/ && !seen[$1]++ { print $1 }')) ;;
			--counters) cands=(default none $("$sb" counters 2>/dev/null |
				awk '$2 == "available" || $2 == "unavailable:" { print $1 }')) ;;
			--metric) cands=($(_stratbench_metrics "${w[@]:2}")) ;;
			--placement) cands=(auto compact cores scatter list:) ;;
			--threads) cands=(auto 1 2 4 8 16 32 64) ;;
			--topology) cands=(synthetic: xml:) ;;
			--out|--benchmark_out) head=; cands=($(compgen -d -- "$val")) ;;
			*)	# the option's choices, as its help line lists them
				cands=($("$sb" "$cmd" --help 2>/dev/null | awk -v o="$opt" '
					$1 ~ "^" o "=" {
						if (match($0, /one of: [^;(]*/))
							print substr($0, RSTART + 8, RLENGTH - 8)
						else if ($1 ~ /=BOOL$/) print "true false"
						else if (split($1, a, "=") && a[2] ~ /\|/) {
							gsub(/\|/, " ", a[2]); print a[2] } }'))
				;;
			esac
			for c in "${!cands[@]}"; do cands[c]=$opt=$head${cands[c]}; done
			;;
		-*)
			cands=(--help $("$sb" "$cmd" --help 2>/dev/null |
				grep -oE '^ +--[A-Za-z0-9_-]+=?' | tr -d ' '))
			;;
		*)	# positional: plot/merge/summary DIR, compare OLD NEW, help COMMAND
			case $cmd in
			plot|merge|summary) cands=($(compgen -d -- "$cur")) ;;
			compare) cands=($(compgen -d -- "$cur") $(compgen -f -X '!*.json' -- "$cur")) ;;
			help) cands=($("$sb" help 2>/dev/null | awk '/^Commands:/ { f = 1; next }
				f && /^  [a-z]/ { print $1 } f && /^$/ { exit }')) ;;
			esac
			;;
		esac
	fi
	# bash replaces only the text after the last = or : of the word
	pre=
	[[ $cur == *[=:]* ]] && pre=${cur%"${cur##*[=:]}"}
	for c in "${cands[@]}"; do
		[[ $c == "$cur"* ]] && COMPREPLY+=("${c#"$pre"}")
	done
	for c in "${COMPREPLY[@]}"; do
		[[ $c == *[=:] ]] && { compopt -o nospace 2>/dev/null; break; }
	done
	return 0
}
complete -F _stratbench stratbench
