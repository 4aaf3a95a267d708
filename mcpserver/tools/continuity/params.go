package continuity

type LearnParams struct {
	Query    string   `json:"query"`
	Feedback string   `json:"feedback"`
	NodeIDs  []string `json:"node_ids"`
	Strength float64  `json:"strength"`
}

type driftParams struct {
	Since              string `json:"since"`
	IncludeWeightDrift bool   `json:"include_weight_drift"`
	TopN               int    `json:"top_n"`
}
