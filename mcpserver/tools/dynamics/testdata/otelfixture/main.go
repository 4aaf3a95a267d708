// Command otelfixture is a small checkout service instrumented with the
// OpenTelemetry Go SDK. go run . exports its spans through otlptracehttp to
// an in-process OTLP receiver and writes the request it received, as OTLP
// JSON (protojson, enums as numbers), to spans.json — the runtime_overlay
// tests' input.
package main

import (
	"context"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

func main() {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&collector.ExportTraceServiceResponse{})
		w.Write(out)
	}))
	defer srv.Close()

	ctx := context.Background()
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"), otlptracehttp.WithCompression(otlptracehttp.NoCompression))
	if err != nil {
		log.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewSchemaless(attribute.String("service.name", "checkout"))),
	)
	tr := tp.Tracer("example.com/otelfixture")
	for _, c := range []struct{ user, card string }{{"ann", "4111"}, {"bob", "4242"}, {"cy", "0000"}} {
		handleCheckout(ctx, tr, c.user, c.card)
	}
	if err := tp.Shutdown(ctx); err != nil {
		log.Fatal(err)
	}

	all := &collector.ExportTraceServiceRequest{}
	for _, b := range bodies {
		var req collector.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			log.Fatal(err)
		}
		all.ResourceSpans = append(all.ResourceSpans, req.ResourceSpans...)
	}
	out, err := protojson.MarshalOptions{Multiline: true, Indent: "  ", UseEnumNumbers: true}.Marshal(all)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("spans.json", append(out, '\n'), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%d requests, %d bytes of OTLP JSON in spans.json", len(bodies), len(out))
}
