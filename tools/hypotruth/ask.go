package hypotruth

import (
	"context"
	"errors"

	"github.com/m1nd-go/m1nd/tools/localize"
)

// Answer is hypothesize's verdict on one claim.
type Answer struct {
	Claim
	Verdict    string  `json:"verdict"`
	Confidence float64 `json:"confidence"`
	// Error is set when the server refused the claim (e.g. a file the
	// graph does not hold).
	Error string `json:"error,omitempty"`
}

// Ask puts every claim to the server as "A depends on B" (file paths).
func Ask(ctx context.Context, c *localize.Client, claims []Claim) ([]Answer, error) {
	out := make([]Answer, 0, len(claims))
	for _, cl := range claims {
		var res struct {
			Verdict    string  `json:"verdict"`
			Confidence float64 `json:"confidence"`
		}
		err := c.CallTool(ctx, "hypothesize", map[string]any{"agent_id": "hypotruth", "claim": cl.A + " depends on " + cl.B}, &res)
		a := Answer{Claim: cl, Verdict: res.Verdict, Confidence: res.Confidence}
		var te *localize.ToolError
		switch {
		case errors.As(err, &te):
			a.Error = te.Text
		case err != nil:
			return out, err
		}
		out = append(out, a)
	}
	return out, nil
}

// Tally counts one kind's verdicts.
type Tally struct {
	Claims       int `json:"claims"`
	LikelyTrue   int `json:"likely_true"`
	LikelyFalse  int `json:"likely_false"`
	Inconclusive int `json:"inconclusive"`
	Refused      int `json:"refused"`
	// Right and Wrong count confident verdicts that agree and disagree
	// with the truth; inconclusive is neither.
	Right int `json:"right"`
	Wrong int `json:"wrong"`
	// RightRuntime and WrongRuntime are Right and Wrong against the
	// run-time truth (Claim.RuntimeTrue).
	RightRuntime int `json:"right_runtime"`
	WrongRuntime int `json:"wrong_runtime"`
}

// Add counts a.
func (t *Tally) Add(a Answer) {
	t.Claims++
	switch {
	case a.Error != "":
		t.Refused++
	case a.Verdict == "likely_true":
		t.LikelyTrue++
	case a.Verdict == "likely_false":
		t.LikelyFalse++
	default:
		t.Inconclusive++
	}
	judge(a.Verdict, a.True, &t.Right, &t.Wrong)
	judge(a.Verdict, a.RuntimeTrue, &t.RightRuntime, &t.WrongRuntime)
}

// judge counts a confident verdict as right or wrong against truth.
func judge(verdict string, truth bool, right, wrong *int) {
	if (verdict == "likely_true" && truth) || (verdict == "likely_false" && !truth) {
		*right++
	} else if verdict == "likely_true" || verdict == "likely_false" {
		*wrong++
	}
}
