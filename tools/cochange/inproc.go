package cochange

import (
	"context"
	"os"
	"path/filepath"

	"github.com/m1nd-go/m1nd/core/history"
	"github.com/m1nd-go/m1nd/core/seek"
	"github.com/m1nd-go/m1nd/ingest"
)

// InProcess predicts with core/history on a graph ingested in this
// process: the same code the server runs, with parameters to tune.
type InProcess struct {
	X      *history.Index
	Params history.PredictParams
	// Seek and Fusion serve PredictKnown (WithSeek sets them).
	Seek   *seek.Index
	Fusion history.FusionWeights
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
		fs = appendFile(fs, g.ExternalID(pr.Node))
	}
	return fs, nil
}

// WithSeek builds the seek index the task's text is matched against
// (bodies read from root, as the server reads them from its ingest root).
func (p *InProcess) WithSeek(ctx context.Context, root string) error {
	o := seek.DefaultOptions()
	o.ReadFile = func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(root, rel)) }
	sx, err := seek.Build(ctx, p.X.Graph(), o)
	if err != nil {
		return err
	}
	p.Seek, p.Fusion = sx, history.DefaultFusion
	return nil
}

// PredictKnown implements KnownPredictor with history.PredictKnown.
func (p *InProcess) PredictKnown(given []string, task string, k int) ([]string, error) {
	g := p.X.Graph()
	var kn history.Known
	for _, f := range given {
		if id, ok := g.Lookup("file::" + f); ok {
			kn.Changed = append(kn.Changed, id)
		}
	}
	kn.Task = history.TaskFiles(p.Seek, task, history.TaskDepth)
	if len(kn.Changed) == 0 && len(kn.Task) == 0 {
		return nil, nil
	}
	pp := p.Params
	pp.TopK = 4 * k
	res, err := history.PredictKnown(p.X, kn, pp, p.Fusion)
	if err != nil {
		return nil, err
	}
	var fs []string
	for _, pr := range res.Predictions {
		fs = appendFile(fs, g.ExternalID(pr.Node))
	}
	return fs, nil
}
