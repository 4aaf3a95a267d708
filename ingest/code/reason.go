package code

import "fmt"

// RebuildReason says why an incremental ingest rebuilt the graph instead of
// patching the previous one. Stats.Incremental.RebuildReason carries its
// text (with the count or error some reasons add).
type RebuildReason uint8

// The reasons, in the order the patch path checks them.
const (
	// The previous run left nothing a patch can start from.
	NoPreviousRun         RebuildReason = iota + 1 // no complete run kept (first run, partial run, cache not written)
	RestoredGraph                                  // the graph was served from a snapshot as it was (a restart): no layout to patch
	PreviousGraphReleased                          // the caller let go of the previous graph
	PreviousGraphChanged                           // finalized again since (its generation moved)
	ForeignEdges                                   // an extractor attached edges to another file's nodes
	OptionsChanged                                 // options or root differ from the previous run's
	NoResolverIndex                                // the previous run's resolution state is not the one kept

	// The files moved in a way a patch does not take on.
	FileUnreadable  // a file could not be read (or the time budget ran out)
	NoContentHash   // a file's result could not be stored, so its hash is unknown
	FilesReordered  // files both runs hold come in another order
	ManifestChanged // a manifest moves the package structure resolution maps modules with
	TooManyFiles    // more than maxPatchFiles changed, came or went: a rebuild costs about the same

	// The changed files' nodes do not fit where the old ones were.
	NodeIDTaken      // a new node's ID belongs to another file
	FileNodeLost     // a changed file has no file node any more
	NodeBudget       // the patched graph would exceed the node budget
	DirectoriesMoved // a lead holds other nodes, or a directory would move out of its range

	// The state a patch updates in place is out of step.
	ResolutionIncomplete   // the resolution cache lacks a file of the layout
	ResolverIndexOutOfStep // the resolver index lacks a changed file
	PackageIDCollision     // two packages share an ID
	PackagesOutOfPlace     // the package nodes are not the graph's last
	Cancelled              // the context ended
	SpliceFailed           // graph.Spliced refused the change
)

var reasonText = [...]string{
	NoPreviousRun:          "no previous complete run",
	RestoredGraph:          "the graph was restored from its snapshot at start; the first change after a restart rebuilds it",
	PreviousGraphReleased:  "previous graph released",
	PreviousGraphChanged:   "previous graph changed since",
	ForeignEdges:           "an extractor attached edges to another file's nodes",
	OptionsChanged:         "options or root changed",
	NoResolverIndex:        "no resolver index kept",
	FileUnreadable:         "a file could not be read",
	NoContentHash:          "a file has no content hash",
	FilesReordered:         "files came in another order",
	ManifestChanged:        "a manifest moved the repository's packages",
	TooManyFiles:           "too many files changed",
	NodeIDTaken:            "a new node's ID is taken by another file",
	FileNodeLost:           "a changed file lost its file node",
	NodeBudget:             "the node budget would run out",
	DirectoriesMoved:       "directory nodes do not line up",
	ResolutionIncomplete:   "resolution cache incomplete",
	ResolverIndexOutOfStep: "resolver index out of step",
	PackageIDCollision:     "two packages share an ID",
	PackagesOutOfPlace:     "package nodes out of place",
	Cancelled:              "cancelled",
	SpliceFailed:           "splice",
}

func (r RebuildReason) String() string {
	if int(r) < len(reasonText) && reasonText[r] != "" {
		return reasonText[r]
	}
	return fmt.Sprintf("RebuildReason(%d)", r)
}

// noPatch is the patch path declining: the reason, and what its text
// reports besides.
type noPatch struct {
	reason  RebuildReason
	changed int   // TooManyFiles: how many files changed
	err     error // Cancelled, SpliceFailed
}

func refuse(r RebuildReason) *noPatch { return &noPatch{reason: r} }

// String is the text Stats.Incremental.RebuildReason reports.
func (n *noPatch) String() string {
	switch {
	case n.reason == TooManyFiles:
		return fmt.Sprintf("%d files changed, came or went (a patch takes up to %d)", n.changed, maxPatchFiles)
	case n.err != nil:
		return n.reason.String() + ": " + n.err.Error()
	}
	return n.reason.String()
}
