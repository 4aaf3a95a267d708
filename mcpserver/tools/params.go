package tools

// The argument structs handlers decode their calls into (Call.Bind), one
// per tool, declared as the tool's Input. Each field is a parameter of the
// tool's Params under the same JSON name and type; a test holds the two
// together. Pointers mark parameters whose absence matters (aliases such
// as glob's limit).

type activateParams struct {
	Query                  string   `json:"query"`
	TopK                   int      `json:"top_k"`
	Dimensions             []string `json:"dimensions"`
	XLR                    bool     `json:"xlr"`
	IncludeGhostEdges      bool     `json:"include_ghost_edges"`
	IncludeStructuralHoles bool     `json:"include_structural_holes"`
	IncludeSeeds           bool     `json:"include_seeds"`
}

type warmupParams struct {
	TaskDescription string  `json:"task_description"`
	BoostStrength   float64 `json:"boost_strength"`
}

type resonateParams struct {
	Query  string `json:"query"`
	NodeID string `json:"node_id"`
	TopK   int    `json:"top_k"`
}

type impactParams struct {
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

type ingestParams struct {
	Path            string   `json:"path"`
	Adapter         string   `json:"adapter"`
	Mode            string   `json:"mode"`
	Incremental     bool     `json:"incremental"`
	Namespace       string   `json:"namespace"`
	IncludeDotfiles bool     `json:"include_dotfiles"`
	DotfilePatterns []string `json:"dotfile_patterns"`
}

type learnParams struct {
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

type searchParams struct {
	Query         string `json:"query"`
	Mode          string `json:"mode"`
	Scope         string `json:"scope"`
	TopK          int    `json:"top_k"`
	MaxResults    *int   `json:"max_results"`
	CaseSensitive bool   `json:"case_sensitive"`
	ContextLines  int    `json:"context_lines"`
	Multiline     bool   `json:"multiline"`
	ExactCounts   bool   `json:"exact_counts"`
	CountOnly     bool   `json:"count_only"`
}

type seekParams struct {
	Query       string   `json:"query"`
	TopK        int      `json:"top_k"`
	Scope       string   `json:"scope"`
	NodeTypes   []string `json:"node_types"`
	MinScore    float64  `json:"min_score"`
	GraphRerank bool     `json:"graph_rerank"`
}

type viewParams struct {
	FilePath   string `json:"file_path"`
	Offset     int    `json:"offset"`
	Limit      int    `json:"limit"`
	AutoIngest bool   `json:"auto_ingest"`
}

type healthParams struct{}

type persistParams struct {
	Action string `json:"action"`
}

type helpParams struct {
	ToolName string `json:"tool_name"`
}
