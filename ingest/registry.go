package ingest

import (
	"sync"

	"github.com/m1nd-go/m1nd/ingest/adapter"
	"github.com/m1nd-go/m1nd/ingest/code"
	"github.com/m1nd-go/m1nd/ingest/document"
	"github.com/m1nd-go/m1nd/ingest/jsongraph"
	"github.com/m1nd-go/m1nd/ingest/memory"
)

var (
	defaultOnce sync.Once
	defaultReg  *adapter.Registry
)

// Adapters returns the default registry: "code", "memory", "json" and the
// document adapters ("universal", "auto"/"document", "light", "bibtex",
// "article", "patent", "rfc", "crossref").
func Adapters() *adapter.Registry {
	defaultOnce.Do(func() {
		defaultReg = adapter.NewRegistry()
		must(defaultReg.Register(code.Adapter{}))
		must(defaultReg.Register(jsongraph.Adapter{}))
		must(defaultReg.Register(memory.Adapter{}))
		for _, r := range document.Registrations() {
			must(defaultReg.Register(r.Adapter, r.Aliases...))
		}
	})
	return defaultReg
}

// Register adds an adapter to the default registry.
func Register(a adapter.Adapter, aliases ...string) error {
	return Adapters().Register(a, aliases...)
}

func must(err error) {
	if err != nil {
		panic(err) // the built-in adapters have distinct names
	}
}
