package system

type ingestParams struct {
	Path            string   `json:"path"`
	Adapter         string   `json:"adapter"`
	Mode            string   `json:"mode"`
	Incremental     bool     `json:"incremental"`
	Namespace       string   `json:"namespace"`
	IncludeDotfiles bool     `json:"include_dotfiles"`
	DotfilePatterns []string `json:"dotfile_patterns"`
}

type healthParams struct{}

type persistParams struct {
	Action string `json:"action"`
}

type helpParams struct {
	ToolName string `json:"tool_name"`
}
