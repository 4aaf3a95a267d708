// Package stacktrace forwards to core/stacktrace, the one stack-trace
// parser seek and trace share.
//
// Deprecated: moved to core/stacktrace; removed once trace.go imports it.
package stacktrace

import "github.com/m1nd-go/m1nd/core/stacktrace"

// Types of core/stacktrace.
type (
	Language = stacktrace.Language
	Error    = stacktrace.Error
	Frame    = stacktrace.Frame
	Trace    = stacktrace.Trace
)

// Dialects and limits of core/stacktrace.
const (
	Auto       = stacktrace.Auto
	Python     = stacktrace.Python
	Go         = stacktrace.Go
	JavaScript = stacktrace.JavaScript
	TypeScript = stacktrace.TypeScript
	Rust       = stacktrace.Rust
	Java       = stacktrace.Java
	Kotlin     = stacktrace.Kotlin
	CSharp     = stacktrace.CSharp
	MaxFrames  = stacktrace.MaxFrames
)

// Functions and lists of core/stacktrace.
var (
	Languages      = stacktrace.Languages
	ParseLanguage  = stacktrace.ParseLanguage
	Parse          = stacktrace.Parse
	ParseAll       = stacktrace.ParseAll
	CleanPath      = stacktrace.CleanPath
	IsExternalPath = stacktrace.IsExternalPath
)
