package change

type ImpactParams struct {
	NodeID              string `json:"node_id"`
	Direction           string `json:"direction"`
	Level               string `json:"level"`
	IncludeCausalChains bool   `json:"include_causal_chains"`
	MaxHops             int    `json:"max_hops"`
	TopK                int    `json:"top_k"`
}

type whyParams struct {
	Source  string `json:"source"`
	Target  string `json:"target"`
	MaxHops int    `json:"max_hops"`
	TopK    int    `json:"top_k"`
}

type missingParams struct {
	Query                string  `json:"query"`
	MinSiblingActivation float64 `json:"min_sibling_activation"`
	TopK                 int     `json:"top_k"`
}
