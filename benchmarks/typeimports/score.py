"""Compare truth (file, line, typed) with the extractor's dump: precision
and recall of the type-only marking over statements both saw.
Usage: score.py TRUTH DUMP"""
import sys
def load(p):
    d = {}
    for l in open(p):
        parts = l.rstrip("\n").split("\t")
        if len(parts) == 3:
            d[(parts[0], int(parts[1]))] = parts[2] == "true"
    return d
t, x = load(sys.argv[1]), load(sys.argv[2])
common = set(t) & set(x)
tp = sum(1 for k in common if t[k] and x[k])
fp = [k for k in common if x[k] and not t[k]]
fn = [k for k in common if t[k] and not x[k]]
truth_pos = sum(1 for k in common if t[k])
pred_pos = sum(1 for k in common if x[k])
print(f"statements: truth {len(t)}, extractor {len(x)}, both {len(common)}; only truth {len(set(t)-set(x))}, only extractor {len(set(x)-set(t))}")
print(f"type-only: truth {truth_pos}, marked {pred_pos}, correct {tp}; precision {tp/pred_pos if pred_pos else 1:.3f}, recall {tp/truth_pos if truth_pos else 1:.3f}")
print("false positives:", fp[:10]); print("false negatives:", fn[:10])
missing = sorted(k for k in set(t)-set(x) if t[k])
print("type-only statements the extractor never saw:", missing[:10])
