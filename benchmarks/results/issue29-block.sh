#!/bin/bash
# Every issue-29 figure in one run, one after another (ingest-ratio8.md §1).
# Usage: issue29-block.sh OUTDIR  (run from the repository root after `make build`;
# needs the corpora of benchmarks/corpora/corpora.py in $CORPORA)
set -u
Q=${1:?usage: issue29-block.sh OUTDIR}; mkdir -p "$Q"
B=$PWD/bin; C=${CORPORA:-/tmp/m1nd-corpora}
st() { echo "=== $1 $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$Q/log"; }
(cd mcpserver/tools/live && go test -c -o "$Q/live.test" .) || exit 1
st start
st p335; "$B/m1nd-ingest-bench" -child answer -j 2 -sessions 9 "$C/py-335" > "$Q/p335.jsonl"
for i in 1 2 3; do
  st "gostd full $i"; /usr/bin/time -v "$B/m1nd-ingest-bench" -child full -j 2 "$C/go-std" > "$Q/full-$i.json" 2> "$Q/full-$i.err"
  st "gostd parse $i"; /usr/bin/time -v "$B/m1nd-ingest-bench" -child parse -j 2 "$C/go-std" > "$Q/parse-$i.json" 2> "$Q/parse-$i.err"
done
for i in 1 2; do st "tick $i"
  "$Q/live.test" -test.run XXX -test.bench 'BenchmarkDaemonTickEdit/go-std/^(edit|edit64|edit64same)$/watch' \
    -test.benchtime 15x -test.benchmem > "$Q/tick-$i.txt" 2>&1
done
st activate-ten; python3 benchmarks/results/activate-speed18-drive.py "$B/m1nd-mcp" "$C/go-std" 60 200 "$Q/activate-ten.json" ten > "$Q/activate-ten.txt" 2>&1
st activate; python3 benchmarks/results/activate-speed18-drive.py "$B/m1nd-mcp" "$C/go-std" 60 200 "$Q/activate.json" > "$Q/activate.txt" 2>&1
for i in 1 2 3; do st "server ingest $i"
  python3 benchmarks/results/server-ingest-drive.py "$B/m1nd-mcp" "$C/go-std" "$Q/server-ingest-$i" > "$Q/server-ingest-$i.json"
done
for i in 1 2 3; do st "scale $i"
  "$B/m1nd-scalebench" -server "$B/m1nd-mcp" -n 30 -seek-at 0s,3s -tree go-std="$C/go-std" -tree py-335="$C/py-335" > "$Q/scale-$i.md" 2> "$Q/scale-$i.err"
done
st restart; RT=$(mktemp -d /tmp/rsN-XXXX)
python3 benchmarks/results/server-restart-drive.py "$B/m1nd-mcp" "$C/go-std" "$RT" > /dev/null
for w in 0 5 5; do WAIT=$w python3 benchmarks/results/server-restart-seek.py "$B/m1nd-mcp" "$C/go-std" "$RT" >> "$Q/restart.jsonl"; done
st end
