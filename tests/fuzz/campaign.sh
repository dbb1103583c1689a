#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The long fuzzing campaign (make fuzz; never part of make check, whose
# fuzz suite is a 10 s smoke run per target).  Every libFuzzer target of
# tests/fuzz/ runs in turn, until FUZZ_RUNS executions or FUZZ_SECONDS
# seconds, whichever comes first, starting from its committed corpus
# (corpus/NAME/).  What it found that adds coverage is then merged into
# that corpus with libFuzzer's -merge=1, so a campaign leaves behind only
# inputs that reach something new; `git status tests/fuzz/corpus` shows
# them, to be committed.  Any crash, leak, timeout or sanitizer report
# fails the campaign: the input is kept in build/fuzz/campaign/artifacts/
# and becomes a unit test (tests/unit) with its fix.
#
# Knobs (environment):
#   FUZZ_RUNS=10000000  executions per target (0: no limit)
#   FUZZ_SECONDS=3600   seconds per target (0: no limit)
#   FUZZ_TARGETS=REGEX  only the targets whose NAME matches (default all)
#   FUZZ_MINIMIZE=1     rebuild each corpus from scratch as the smallest
#                       set with the coverage of the old corpus plus the
#                       new finds (files may go), instead of only adding
#   FUZZ_NICE=19        the niceness the fuzzers run at
#
# The report (build/fuzz/campaign/report.txt, also printed) has one line
# per target: executions, executions per second, seconds, the coverage
# libFuzzer measured at the end of the run (cov: edges, ft: features), the
# new inputs the merge kept, and the committed corpus's coverage, files and
# size before and after.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/build/fuzz
camp=$out/campaign
runs=${FUZZ_RUNS:-10000000}
secs=${FUZZ_SECONDS:-3600}
filter=${FUZZ_TARGETS:-.}
nice=${FUZZ_NICE:-19}
opts=(-timeout=10 -rss_limit_mb=2048)

make -s -C "$here" || exit 1
mkdir -p "$camp/artifacts"
report=$camp/report.txt
: > "$report"

# "cov ft" of a corpus as libFuzzer sees it when it has loaded it.
corpus_cov() {
	local t=$1 dir=$2
	nice -n "$nice" "$t" "${opts[@]}" -runs=0 "$dir" 2>&1 |
		sed -n 's/.*INITED cov: \([0-9]*\) ft: \([0-9]*\).*/\1 \2/p' |
		tail -n 1
}

# "files KiB" of a directory (the bytes in its files, not the blocks).
corpus_size() {
	echo "$(find "$1" -type f | wc -l) $(du -sk --apparent-size "$1" | cut -f1)"
}

printf '%-10s %10s %7s %6s %6s %7s %5s  %-16s %-16s\n' target runs exec/s secs \
	cov ft new "corpus before" "corpus after" | tee -a "$report"
printf '%-10s %10s %7s %6s %6s %7s %5s  %-16s %-16s\n' "" "" "" "" "" "" "" \
	"cov/ft files KiB" "cov/ft files KiB" | tee -a "$report"
failed=0
for t in "$out"/fuzz_*; do
	[ -x "$t" ] || continue
	name=${t##*/fuzz_}
	[[ $name =~ $filter ]] || continue
	seeds=$here/corpus/$name
	work=$camp/work-$name
	log=$camp/$name.log
	mkdir -p "$seeds"
	rm -rf "$work"
	mkdir -p "$work"
	read -r cov0 ft0 <<< "$(corpus_cov "$t" "$seeds")"
	read -r files0 kib0 <<< "$(corpus_size "$seeds")"

	start=$(date +%s)
	nice -n "$nice" "$t" "${opts[@]}" -runs="$runs" \
		-max_total_time="$secs" -print_final_stats=1 \
		-artifact_prefix="$camp/artifacts/$name-" \
		"$work" "$seeds" > "$log" 2>&1
	rc=$?
	elapsed=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<< "$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<< "$last")

	# Keep what adds coverage: into the committed corpus, or (minimise)
	# into a fresh directory that then replaces it.
	if [ "${FUZZ_MINIMIZE:-0}" = 1 ]; then
		fresh=$camp/fresh-$name
		rm -rf "$fresh"
		mkdir -p "$fresh"
		nice -n "$nice" "$t" "${opts[@]}" -merge=1 "$fresh" "$seeds" \
			"$work" > "$camp/$name.merge.log" 2>&1 &&
			rm -rf "$seeds" && mv "$fresh" "$seeds"
	else
		nice -n "$nice" "$t" "${opts[@]}" -merge=1 "$seeds" "$work" \
			> "$camp/$name.merge.log" 2>&1
	fi
	read -r files1 kib1 <<< "$(corpus_size "$seeds")"
	read -r cov1 ft1 <<< "$(corpus_cov "$t" "$seeds")"
	status=""
	if [ "$rc" != 0 ]; then
		status="  FAILED (exit $rc): $log, $camp/artifacts/"
		failed=$((failed + 1))
	fi
	printf '%-10s %10s %7s %6s %6s %7s %5s  %-16s %-16s%s\n' "$name" \
		"${execs:-?}" "${rate:-?}" "$elapsed" "${cov:-?}" "${ft:-?}" \
		"$((files1 - files0))" "$cov0/$ft0 $files0 $kib0" \
		"$cov1/$ft1 $files1 $kib1" "$status" | tee -a "$report"
done
echo "# FUZZ_RUNS=$runs FUZZ_SECONDS=$secs, $(git -C "$top" describe --always --dirty 2>/dev/null), $(date -u '+%Y-%m-%d %H:%M UTC'), $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)" |
	tee -a "$report"
if [ "$failed" != 0 ]; then
	echo "fuzz: $failed target(s) failed; inputs in $camp/artifacts/" >&2
	exit 1
fi
