package continuity

// learnOutput is learn's answer.
type learnOutput struct {
	Query                string  `json:"query"`
	Feedback             string  `json:"feedback"`
	EdgesAdjusted        int     `json:"edges_adjusted"`
	EdgesStrengthened    int     `json:"edges_strengthened"`
	EdgesWeakened        int     `json:"edges_weakened"`
	NodesAffected        int     `json:"nodes_affected"`
	LTPThresholdsCrossed int     `json:"ltp_thresholds_crossed" jsonschema:"Edges that earned their one-time long-term bonus (after 5 consecutive strengthens)."`
	LTDThresholdsCrossed int     `json:"ltd_thresholds_crossed" jsonschema:"Edges that earned their one-time long-term penalty (after 5 consecutive weakens)."`
	PlasticityDelta      float64 `json:"plasticity_delta"`
	LearningType         string  `json:"learning_type"`
	PlasticityGeneration uint64  `json:"plasticity_generation"`
	Durable              bool    `json:"durable" jsonschema:"The feedback is journaled and survives a crash."`
	ElapsedMs            float64 `json:"elapsed_ms"`
	NextStepHint         string  `json:"next_step_hint,omitempty"`
}

// driftOutput is drift's answer.
type driftOutput struct {
	Since    string `json:"since"`
	Baseline struct {
		Source string `json:"source"`
		Taken  string `json:"taken"`
		Exact  bool   `json:"exact" jsonschema:"A baseline as old as since was found (else the oldest one was used)."`
	} `json:"baseline"`
	NodeCountDelta  int      `json:"node_count_delta"`
	EdgeCountDelta  int      `json:"edge_count_delta"`
	NewNodes        []string `json:"new_nodes" jsonschema:"File and directory nodes added since the baseline (at most 100)."`
	RemovedNodes    []string `json:"removed_nodes"`
	EdgesChanged    int      `json:"edges_changed"`
	AvgAbsDelta     float64  `json:"avg_abs_delta"`
	LTPCount        int      `json:"ltp_count"`
	LTDCount        int      `json:"ltd_count"`
	ElapsedMs       float64  `json:"elapsed_ms"`
	TopWeightDrifts []struct {
		Edge     string  `json:"edge"`
		Source   string  `json:"source"`
		Target   string  `json:"target"`
		Relation string  `json:"relation"`
		Old      float64 `json:"old"`
		New      float64 `json:"new"`
		Delta    float64 `json:"delta"`
	} `json:"top_weight_drifts,omitempty" jsonschema:"The edges whose learned weight moved most (with include_weight_drift)."`
	NextStepHint string `json:"next_step_hint,omitempty"`
}
