package code

import "testing"

// A Kotlin call on a property a base class declares (x.m() in Sub, x a
// Base property) is typed through the base: editing the base's property
// in another file must move the edge in an incremental ingest as in a
// full one (a cached outcome of a "super.x" receiver is not reused).
func TestIncrementalKotlinInheritedReceiver(t *testing.T) {
	steps := []ctorStep{
		{"the base's property changes type", map[string]string{
			"k/Base.kt": "package k\n\nopen class Base {\n    val out: Viewer = Viewer()\n}\n",
		}, "file::k/Sub.kt::Sub::run", "file::k/Viewer.kt::Viewer::emit", true},
		{"the property moves to a new base between them", map[string]string{
			"k/Base.kt": "package k\n\nopen class Base {\n}\n\nopen class Mid : Base() {\n    val out: Writer = Writer()\n}\n",
			"k/Sub.kt":  "package k\n\nclass Sub : Mid() {\n    fun run() {\n        out.emit()\n    }\n}\n",
		}, "file::k/Sub.kt::Sub::run", "file::k/Writer.kt::Writer::emit", true},
	}
	runBothPaths(t, map[string]string{
		"k/Writer.kt": "package k\n\nclass Writer {\n    fun emit() {}\n}\n",
		"k/Viewer.kt": "package k\n\nclass Viewer {\n    fun emit() {}\n}\n",
		"k/Base.kt":   "package k\n\nopen class Base {\n    val out: Writer = Writer()\n}\n",
		"k/Sub.kt":    "package k\n\nclass Sub : Base() {\n    fun run() {\n        out.emit()\n    }\n}\n",
	}, steps)
}
