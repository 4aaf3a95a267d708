package query

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
