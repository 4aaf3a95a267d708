package tools

import (
	"reflect"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/mcpserver/session"
)

// coverageIgnored are read tools whose answers are not looked-at code:
// reports about coverage and the disk, listings of names, server state.
var coverageIgnored = map[string]bool{"coverage_session": true, "cross_verify": true, "external_references": true, "glob": true, "health": true, "help": true}

// coverageReporter is an answer that says which files it showed the
// content of and which it only named.
type coverageReporter interface {
	Coverage() (read, seen []string)
}

// recordCoverage notes what a successful read call showed its agent.
func recordCoverage(s *session.State, c *Call, v any) {
	if coverageIgnored[c.Tool.Name] {
		return
	}
	var read, seen []string
	if r, ok := v.(coverageReporter); ok {
		read, seen = r.Coverage()
	} else {
		w := shownWalker{}
		w.any(v, "", 0)
		seen = w.out
	}
	s.Coverage().Record(c.AgentID, c.Tool.Name, read, seen)
}

// shownKeys are the answer fields that name a node or a file.
var shownKeys = map[string]bool{"node_id": true, "file_node_id": true, "source": true, "target": true, "file": true,
	"file_path": true, "path": true, "node_ids": true, "source_path": true}

// Bounds of one answer's walk.
const (
	shownMaxValues = 2000
	shownMaxDepth  = 12
	shownMaxVisits = 100_000
)

// shownWalker collects the strings under shownKeys from an answer (maps,
// structs with json tags, slices), without encoding it.
type shownWalker struct {
	out    []string
	visits int
}

// any walks the generic shapes answers are built of (maps of any, slices
// of any, strings) without reflection, the rest with walk.
func (w *shownWalker) any(x any, key string, depth int) {
	w.visits++
	if depth > shownMaxDepth || len(w.out) >= shownMaxValues || w.visits > shownMaxVisits {
		return
	}
	switch t := x.(type) {
	case nil:
	case string:
		if shownKeys[key] && t != "" {
			w.out = append(w.out, t)
		}
	case map[string]any:
		for k, val := range t {
			w.any(val, k, depth+1)
		}
	case []any:
		for _, e := range t {
			w.any(e, key, depth+1)
		}
	case []string:
		if shownKeys[key] {
			w.out = append(w.out, t[:min(len(t), shownMaxValues-len(w.out))]...)
		}
	case bool, int, int64, float32, float64:
	default:
		w.walk(reflect.ValueOf(x), key, depth)
	}
}

func (w *shownWalker) walk(v reflect.Value, key string, depth int) {
	w.visits++
	if depth > shownMaxDepth || len(w.out) >= shownMaxValues || w.visits > shownMaxVisits || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() && v.CanInterface() {
			w.any(v.Interface(), key, depth)
		}
	case reflect.Pointer:
		if !v.IsNil() {
			w.walk(v.Elem(), key, depth)
		}
	case reflect.String:
		if shownKeys[key] && v.Len() > 0 {
			w.out = append(w.out, v.String())
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := 0; i < v.Len(); i++ {
			w.walk(v.Index(i), key, depth+1)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		it := v.MapRange()
		for it.Next() {
			w.walk(it.Value(), it.Key().String(), depth+1)
		}
	case reflect.Struct:
		for _, f := range fieldsOf(v.Type()) {
			if f.embedded {
				w.walk(v.Field(f.index), key, depth)
			} else {
				w.walk(v.Field(f.index), f.name, depth+1)
			}
		}
	}
}

// shownField is a struct field that may hold strings, by its JSON name.
type shownField struct {
	index    int
	name     string
	embedded bool
}

// shownFields caches fieldsOf per type (tags are parsed once).
var shownFields sync.Map

func fieldsOf(t reflect.Type) []shownField {
	if v, ok := shownFields.Load(t); ok {
		return v.([]shownField)
	}
	var out []shownField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch f.Type.Kind() {
		case reflect.String, reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer, reflect.Interface, reflect.Struct:
		default:
			continue // numbers and booleans name nothing
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || name == "-":
		case f.Anonymous && name == "":
			out = append(out, shownField{index: i, embedded: true})
		case name == "":
			out = append(out, shownField{index: i, name: f.Name})
		default:
			out = append(out, shownField{index: i, name: name})
		}
	}
	shownFields.Store(t, out)
	return out
}
