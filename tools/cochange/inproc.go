package cochange

import (
	"context"
	"strings"

	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/ingest"
)

// InProcess predicts with core/history on a graph ingested in this
// process: the same code the server runs, with parameters to tune.
type InProcess struct {
	X      *history.Index
	Params history.PredictParams
}

// NewInProcess ingests root.
func NewInProcess(ctx context.Context, root string) (*InProcess, error) {
	out, err := ingest.Run(ctx, ingest.Config{Root: root}, nil)
	if err != nil {
		return nil, err
	}
	return &InProcess{X: history.NewIndex(out.Graph, out.Commits), Params: history.DefaultPredictParams()}, nil
}

// Predict implements Predictor.
func (p *InProcess) Predict(file string, k int) ([]string, error) {
	g := p.X.Graph()
	id, ok := g.Lookup("file::" + file)
	if !ok {
		return nil, nil
	}
	pp := p.Params
	pp.TopK = 4 * k
	res, err := history.Predict(p.X, id, pp)
	if err != nil {
		return nil, err
	}
	var fs []string
	for _, pr := range res.Predictions {
		if f, ok := strings.CutPrefix(g.ExternalID(pr.Node), "file::"); ok {
			fs = append(fs, f)
		}
	}
	return fs, nil
}
