package dynamics

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	coredyn "github.com/m1nd-go/m1nd/core/dynamics"
	"github.com/m1nd-go/m1nd/core/graph"
	"github.com/m1nd-go/m1nd/mcpserver/session"
	"github.com/m1nd-go/m1nd/mcpserver/tools"
)

type overlayParams struct {
	Spans           []map[string]any `json:"spans" jsonschema:"OTLP JSON resourceSpans (or spans)." help:"OpenTelemetry spans as OTLP JSON writes them: the resourceSpans array of an export request (each with resource and scopeSpans), whole export requests ({\"resourceSpans\": [...]}), or bare span objects (name, startTimeUnixNano, endTimeUnixNano, attributes, status)." tool:"required"`
	ServiceName     string           `json:"service_name" help:"Only spans of this service.name."`
	MappingStrategy string           `json:"mapping_strategy" help:"code_attribute: code.function (or code.function.name), code.namespace and code.filepath (or code.file.path), then the span name for spans without them; label_match: the span name only; exact_id: the attribute m1nd.node_id or a span name that is a node id." tool:"default=code_attribute,enum=code_attribute|label_match|exact_id"`
}

// OverlayOutput is runtime_overlay's answer.
type OverlayOutput struct {
	Spans         int               `json:"spans"`
	Mapped        int               `json:"mapped"`
	Unmapped      int               `json:"unmapped"`
	OtherServices int               `json:"other_services" jsonschema:"Spans left out by service_name."`
	Nodes         []overlayNodeJSON `json:"nodes" jsonschema:"Nodes the spans painted, hottest first (at most 20)."`
	NotListed     int               `json:"not_listed"`
	UnmappedNames []string          `json:"unmapped_names,omitempty" jsonschema:"Names of spans that found no node (at most 10)."`
	Strategy      string            `json:"mapping_strategy"`
	ElapsedMs     float64           `json:"elapsed_ms"`
	tools.Guidance
}

type overlayNodeJSON struct {
	NodeID string `json:"node_id"`
	tools.RuntimeHeat
	ErrorRate float64 `json:"error_rate"`
}

// Overlay bounds.
const (
	maxOverlaySpans  = 100_000
	maxOverlayListed = 20
	maxUnmappedNames = 10
)

func registerOverlay(r *tools.Registry) {
	tools.Add(r, tools.Tool{
		Name:        "runtime_overlay",
		Title:       "Runtime overlay",
		Description: "Paint OpenTelemetry spans (OTLP JSON) onto the graph: calls, latency, errors per node.",
		Details: "Reads spans as OTLP JSON exporters write them (resourceSpans → scopeSpans → spans; attributes as key/value with stringValue, intValue …; status code 2 or STATUS_CODE_ERROR is an error) and maps each to a node: " +
			"code_attribute uses code.function (or code.function.name), the receiver in code.namespace (main.(*Cart) → Cart) and code.filepath (or code.file.path), whose end must be the node's file; spans without them fall back to their name; " +
			"label_match uses the name only (\"chargeCard\", \"Cart.Total\"); exact_id the attribute m1nd.node_id or a name that is a node id. A span whose name or attributes fit no node, or several, is unmapped. " +
			"Per node: calls, errors, error rate, mean and max latency, heat (half the share of the busiest node's calls, half of the largest total time). " +
			"The overlay stays in the session, saved beside the graph (runtime_overlay.json; a new call replaces it), and impact then reports each affected node's runtime figures.",
		Class:     tools.Read,
		WhenToUse: "After an incident or a trace export: which code is hot, slow or failing at runtime, next to its structure.",
		AvoidWhen: "You have no spans; for structural risk alone use panoramic.",
		Next:      []string{"impact", "view"},
		Example: map[string]any{"agent_id": "claude", "spans": []any{map[string]any{"name": "chargeCard", "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000020000000",
			"attributes": []any{map[string]any{"key": "code.function", "value": map[string]any{"stringValue": "charge"}}}}}},
	}, runOverlay)
}

func runOverlay(c *tools.Call, in overlayParams) (OverlayOutput, error) {
	strategy := map[string]coredyn.MapStrategy{"code_attribute": coredyn.CodeAttribute, "label_match": coredyn.LabelMatch, "exact_id": coredyn.ExactID}[in.MappingStrategy]
	spans, other, err := parseSpans(in.Spans, in.ServiceName)
	if err != nil {
		return OverlayOutput{}, err
	}
	out := OverlayOutput{Spans: len(spans), OtherServices: other, Strategy: in.MappingStrategy, Nodes: []overlayNodeJSON{}}
	err = tools.ReadGraph(c, func(b *session.Bundle) error {
		g := b.Graph
		start := time.Now()
		res := coredyn.Overlay(g, spans, strategy)
		painted := map[string]tools.RuntimeHeat{}
		for _, h := range res.Nodes {
			painted[g.ExternalID(h.Node)] = heatOf(h, in.ServiceName)
		}
		if err := tools.Runtime(c.Session).Replace(painted, c.Session.Now()); err != nil {
			c.Session.Logf("runtime overlay not saved: %v", err)
		}
		out.fill(g, res, spans, painted)
		out.ElapsedMs = tools.Ms(time.Since(start))
		out.Guidance = overlayGuidance(c, g, res)
		return nil
	})
	return out, err
}

func heatOf(h coredyn.NodeHeat, service string) tools.RuntimeHeat {
	return tools.RuntimeHeat{Calls: h.Calls, Errors: h.Errors, MeanMs: r3(float64(h.TotalNs) / float64(h.Calls) / 1e6),
		MaxMs: r3(float64(h.MaxNs) / 1e6), Heat: r3(h.Heat), Service: service}
}

func r3(f float64) float64 { return tools.R3(float32(f)) }

func (out *OverlayOutput) fill(g *graph.Graph, res coredyn.OverlayResult, spans []coredyn.Span, painted map[string]tools.RuntimeHeat) {
	out.Mapped, out.Unmapped = res.Mapped, len(res.Unmapped)
	for _, h := range res.Nodes[:min(len(res.Nodes), maxOverlayListed)] {
		id := g.ExternalID(h.Node)
		out.Nodes = append(out.Nodes, overlayNodeJSON{NodeID: id, RuntimeHeat: painted[id], ErrorRate: r3(float64(h.Errors) / float64(h.Calls))})
	}
	out.NotListed = len(res.Nodes) - len(out.Nodes)
	for _, i := range res.Unmapped {
		if n := spans[i].Name; !slices.Contains(out.UnmappedNames, n) && len(out.UnmappedNames) < maxUnmappedNames {
			out.UnmappedNames = append(out.UnmappedNames, n)
		}
	}
}

func overlayGuidance(c *tools.Call, g *graph.Graph, res coredyn.OverlayResult) tools.Guidance {
	if len(res.Nodes) == 0 {
		return tools.Guidance{ProofState: "triaging", NextStepHint: "No span found a node: check that the spans come from the ingested code, or try mapping_strategy label_match."}
	}
	h := res.Nodes[0]
	return tools.Guidance{
		ProofState: "proving", NextSuggestedTool: tools.FirstTool(c.Registry, "impact", "view"), NextSuggestedTarget: g.ExternalID(h.Node),
		NextStepHint: fmt.Sprintf("%s is the hottest node (%d calls, %d errors): see what depends on it; impact now shows runtime figures.", g.Label(h.Node), h.Calls, h.Errors),
	}
}

// OTLP JSON (lowerCamelCase, 64-bit integers as strings or numbers).
type otlpRequest struct {
	ResourceSpans []otlpResourceSpans `json:"resourceSpans"`
}

type otlpResourceSpans struct {
	Resource *struct {
		Attributes []otlpKV `json:"attributes"`
	} `json:"resource"`
	ScopeSpans   []otlpScopeSpans `json:"scopeSpans"`
	LibrarySpans []otlpScopeSpans `json:"instrumentationLibrarySpans"` // before OTLP 0.15
}

type otlpScopeSpans struct {
	Spans []otlpSpan `json:"spans"`
}

type otlpSpan struct {
	Name       string    `json:"name"`
	Start      otlpInt   `json:"startTimeUnixNano"`
	End        otlpInt   `json:"endTimeUnixNano"`
	Attributes []otlpKV  `json:"attributes"`
	Status     otlpState `json:"status"`
}

type otlpState struct {
	Code json.RawMessage `json:"code"`
}

type otlpKV struct {
	Key   string `json:"key"`
	Value struct {
		String *string          `json:"stringValue"`
		Int    *otlpInt         `json:"intValue"`
		Bool   *bool            `json:"boolValue"`
		Double *float64         `json:"doubleValue"`
		Other  *json.RawMessage `json:"arrayValue"`
	} `json:"value"`
}

// otlpInt is an int64 written as a JSON string or number.
type otlpInt int64

func (v *otlpInt) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		n, err := strconv.ParseInt(s, 10, 64)
		*v = otlpInt(n)
		return err
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("not an integer: %s", b)
	}
	*v = otlpInt(f)
	return nil
}

// parseSpans reads the spans parameter: export requests, resourceSpans or
// bare spans, in order; spans of a service other than service are counted,
// not returned.
func parseSpans(items []map[string]any, service string) (out []coredyn.Span, other int, err error) {
	for i, item := range items {
		raw, _ := json.Marshal(item)
		var rs []otlpResourceSpans
		switch {
		case item["resourceSpans"] != nil:
			var req otlpRequest
			err = json.Unmarshal(raw, &req)
			rs = req.ResourceSpans
		case item["scopeSpans"] != nil || item["instrumentationLibrarySpans"] != nil || item["resource"] != nil:
			var one otlpResourceSpans
			err = json.Unmarshal(raw, &one)
			rs = []otlpResourceSpans{one}
		default:
			var sp otlpSpan
			err = json.Unmarshal(raw, &sp)
			rs = []otlpResourceSpans{{ScopeSpans: []otlpScopeSpans{{Spans: []otlpSpan{sp}}}}}
		}
		if err != nil {
			return nil, 0, spansError(i, err)
		}
		for _, r := range rs {
			svc := ""
			if r.Resource != nil {
				svc = attrs(r.Resource.Attributes)["service.name"]
			}
			for _, ss := range append(r.ScopeSpans, r.LibrarySpans...) {
				for _, sp := range ss.Spans {
					if service != "" && svc != service {
						other++
						continue
					}
					if len(out) == maxOverlaySpans {
						return nil, 0, tools.Errorf("Send at most 100,000 spans per call (one export batch, or a sample of it).", "spans holds more than %d spans", maxOverlaySpans)
					}
					out = append(out, coredyn.Span{Name: sp.Name, Service: svc, Attrs: attrs(sp.Attributes),
						DurationNs: max(int64(sp.End-sp.Start), 0), Error: isError(sp.Status.Code)})
				}
			}
		}
	}
	return out, other, nil
}

func spansError(i int, err error) error {
	return tools.Errorf("spans are OTLP JSON: resourceSpans objects ({\"resource\": …, \"scopeSpans\": [{\"spans\": [...]}]}), export requests ({\"resourceSpans\": [...]}) or spans ({\"name\", \"startTimeUnixNano\", \"endTimeUnixNano\", \"attributes\": [{\"key\", \"value\": {\"stringValue\"}}]}).",
		"spans[%d] is not OTLP JSON: %v", i, err).
		WithExample(map[string]any{"agent_id": "claude", "spans": []any{map[string]any{"name": "chargeCard", "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000020000000"}}})
}

// attrs flattens OTLP attributes to strings.
func attrs(kvs []otlpKV) map[string]string {
	m := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		v := kv.Value
		switch {
		case v.String != nil:
			m[kv.Key] = *v.String
		case v.Int != nil:
			m[kv.Key] = strconv.FormatInt(int64(*v.Int), 10)
		case v.Bool != nil:
			m[kv.Key] = strconv.FormatBool(*v.Bool)
		case v.Double != nil:
			m[kv.Key] = strconv.FormatFloat(*v.Double, 'g', -1, 64)
		}
	}
	return m
}

// isError: status code 2, as OTLP JSON writes the enum, or its name.
func isError(code json.RawMessage) bool {
	var n int
	if json.Unmarshal(code, &n) == nil {
		return n == 2
	}
	var s string
	return json.Unmarshal(code, &s) == nil && s == "STATUS_CODE_ERROR"
}
