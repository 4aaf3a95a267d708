package query

func (r viewResponse) Coverage() (read, seen []string) {
	seen = []string{r.FileNodeID}
	for _, n := range r.Nodes {
		seen = append(seen, n.NodeID)
	}
	return []string{r.FilePath}, seen
}

func (r batchViewResponse) Coverage() (read, seen []string) {
	for _, f := range r.Files {
		if f.Status != "ok" {
			continue
		}
		if r.SummaryMode {
			seen = append(seen, f.FilePath)
			for _, n := range f.Outline {
				seen = append(seen, n.NodeID)
			}
		} else {
			read = append(read, f.FilePath)
		}
	}
	return read, seen
}
