package graph

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NodeID indexes the per-node arrays of a Graph. IDs are dense: 0..NumNodes()-1.
type NodeID uint32

// EdgeIdx indexes the forward CSR edge arrays of a finalized Graph.
type EdgeIdx uint32

// Generation counts structural mutations of a Graph (each Finalize bumps it).
// Engines remember the generation they were built for and rebuild on mismatch.
type Generation uint64

// NoNode is returned by lookups that find nothing.
const NoNode = NodeID(math.MaxUint32)

// NodeType classifies a node. Values 0–8 are code-domain types, 9–16 serve
// other domains; values from CustomBase up are custom types (Custom(n) is
// CustomBase+n; docs/design.md#node-types).
type NodeType uint8

// Node types (docs/design.md#node-types). Binary snapshots store these
// numbers.
const (
	File NodeType = iota
	Directory
	Function
	Class
	Struct
	Enum
	Type
	Module
	Reference
	Concept
	Material
	Process
	Product
	Supplier
	Regulatory
	System
	Cost
	// CustomBase is the first custom type: Custom(n) == CustomBase + n.
	CustomBase
)

var nodeTypeNames = [...]string{
	"File", "Directory", "Function", "Class", "Struct", "Enum", "Type", "Module",
	"Reference", "Concept", "Material", "Process", "Product", "Supplier",
	"Regulatory", "System", "Cost",
}

// Custom returns the custom node type n, Custom(n).
func Custom(n uint8) NodeType {
	if int(n)+int(CustomBase) > math.MaxUint8 {
		n = math.MaxUint8 - uint8(CustomBase)
	}
	return CustomBase + NodeType(n)
}

// IsCustom reports whether t is a custom type, and which one.
func (t NodeType) IsCustom() (uint8, bool) {
	if t >= CustomBase {
		return uint8(t - CustomBase), true
	}
	return 0, false
}

// String returns the type's name: "File", "Function", … or "Custom(n)".
func (t NodeType) String() string {
	if int(t) < len(nodeTypeNames) {
		return nodeTypeNames[t]
	}
	return "Custom(" + strconv.Itoa(int(t-CustomBase)) + ")"
}

// ParseNodeType accepts a type name in any case ("file", "Function"),
// "Custom(n)", or a decimal number.
func ParseNodeType(s string) (NodeType, error) {
	s = strings.TrimSpace(s)
	for i, n := range nodeTypeNames {
		if strings.EqualFold(n, s) {
			return NodeType(i), nil
		}
	}
	low := strings.ToLower(s)
	if strings.HasPrefix(low, "custom(") && strings.HasSuffix(low, ")") {
		n, err := strconv.ParseUint(s[7:len(s)-1], 10, 8)
		if err == nil && int(n)+int(CustomBase) <= math.MaxUint8 {
			return Custom(uint8(n)), nil
		}
	}
	if n, err := strconv.ParseUint(s, 10, 8); err == nil {
		return NodeType(n), nil
	}
	return 0, fmt.Errorf("unknown node type %q (want one of %s, or Custom(n))", s, strings.Join(nodeTypeNames[:], ", "))
}

// Direction says whether an edge is one-way or was declared bidirectional.
type Direction uint8

const (
	// Forward edges run source → target only.
	Forward Direction = iota
	// Bidirectional edges are expanded at Finalize into two forward entries.
	Bidirectional
)

func (d Direction) String() string {
	if d == Bidirectional {
		return "bidirectional"
	}
	return "forward"
}

// ParseDirection accepts "forward" / "bidirectional" in any case.
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "forward", "":
		return Forward, nil
	case "bidirectional", "both":
		return Bidirectional, nil
	}
	return 0, fmt.Errorf("unknown edge direction %q (want \"forward\" or \"bidirectional\")", s)
}

// Dimension names one of the four activation dimensions.
type Dimension uint8

// The four dimensions, in the order of DimensionWeights.
const (
	Structural Dimension = iota
	Semantic
	Temporal
	Causal
	NumDimensions = 4
)

// DimensionWeights are the default merge weights
// (docs/design.md#activation-pipeline).
var DimensionWeights = [NumDimensions]float32{0.35, 0.25, 0.15, 0.25}

func (d Dimension) String() string {
	switch d {
	case Structural:
		return "structural"
	case Semantic:
		return "semantic"
	case Temporal:
		return "temporal"
	case Causal:
		return "causal"
	}
	return "dimension(" + strconv.Itoa(int(d)) + ")"
}

// Plasticity limits shared by the graph (clamping on import) and the engine.
const (
	WeightFloor   = float32(0.05)
	WeightCap     = float32(3.0)
	CASRetryLimit = 64
)
