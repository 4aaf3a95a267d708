#!/bin/sh
# Latency of the immune tools through stdio (m1nd-toolbench), with a
# runtime directory seeded with the benchmark antibodies.
#   benchmarks/immune/bench.sh CORPUS RUNTIME_DIR HEURISTICS_NODE LEARN_NODE [N]
# RUNTIME_DIR must hold antibodies.json (python3 benchmarks/immune/antibodies.py py|go FILE).
# Expects bin/m1nd-mcp and bin/m1nd-toolbench (or BIN=dir).
corpus=$1; rt=$2; node=$3; lnode=$4; n=${5:-30}; bin=${BIN:-bin}
rm -f "$rt"/graph.* "$rt"/trust_state.json "$rt"/tremor_state.json "$rt"/antibodies.json.bak
M1ND_RUNTIME_DIR=$rt "$bin"/m1nd-toolbench -server "$bin"/m1nd-mcp -corpus "$corpus" -n "$n" -only \
  -call 'trust {}' -call 'trust {"tier_filter":"HighRisk","sort_by":"DefectsDesc"}' \
  -call 'tremor {"window":"all"}' -call 'tremor {"window":"90d","detail":"full"}' \
  -call 'antibody_list {"detail":"full"}' -call 'antibody_scan {}' -call 'antibody_scan {"match_mode":"regex"}' \
  -call 'antibody_create {"action":"disable","antibody_id":"ab_019"}' \
  -call "heuristics_surface {\"node_id\":\"$node\"}" \
  -call "learn {\"query\":\"fix crash when closing\",\"feedback\":\"correct\",\"node_ids\":[\"$lnode\"]}"
