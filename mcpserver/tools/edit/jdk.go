package edit

import (
	"archive/zip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/m1nd-go/m1nd/mcpserver/edit"
)

// jdk reads the declarations of the Java standard library from the JDK
// installed on this machine, so that a class implementing Path or
// extending AbstractList is checked against what the JDK declares. It
// reads lib/ct.sym (every JDK since 9 ships it for --release; class files
// of each release's public API) or, without it, the java.* jmods, lazily:
// a type is parsed the first time a walk asks for it.
type jdk struct {
	home    string
	entries map[string]*zip.File // internal name (java/util/Map$Entry) → its class file
	closers []io.Closer

	mu     sync.Mutex
	parsed map[string]*classFile // nil value: unreadable
}

// maxClassBytes bounds one class file read (the JDK's largest are ≈ 100 KB).
const maxClassBytes = 1 << 20

var jdks = struct {
	sync.Mutex
	byHome map[string]*jdk
}{byHome: map[string]*jdk{}}

// findJDK is the JDK named by JAVA_HOME, else the one javac on PATH
// belongs to; nil and why when there is none or it holds no declarations.
// Each home is opened once per process.
func findJDK() (*jdk, string) {
	home := os.Getenv("JAVA_HOME")
	if home == "" {
		javac, err := exec.LookPath("javac")
		if err != nil {
			return nil, "no JDK was found (JAVA_HOME is unset and javac is not on PATH), so the Java standard library's declarations could not be read"
		}
		if real, err := filepath.EvalSymlinks(javac); err == nil {
			javac = real
		}
		home = filepath.Dir(filepath.Dir(javac))
	}
	jdks.Lock()
	defer jdks.Unlock()
	j, ok := jdks.byHome[home]
	if !ok {
		j = openJDK(home)
		jdks.byHome[home] = j
	}
	if j == nil {
		return nil, fmt.Sprintf("the JDK at %s has neither lib/ct.sym nor jmods/java.base.jmod, so the Java standard library's declarations could not be read", home)
	}
	return j, ""
}

// openJDK indexes home's lib/ct.sym, else its java.* jmods (nil: neither).
func openJDK(home string) *jdk {
	j := &jdk{home: home, entries: map[string]*zip.File{}, parsed: map[string]*classFile{}}
	if z, c := openZip(filepath.Join(home, "lib", "ct.sym"), 0); z != nil {
		j.closers = append(j.closers, c)
		newest := map[string]string{}
		for _, f := range z.File {
			// "BCDEFG/java.base/java/util/AbstractList.sig": the releases
			// (one letter or digit each) whose API holds that file.
			rel, rest, _ := strings.Cut(f.Name, "/")
			_, internal, ok := strings.Cut(rest, "/")
			internal, sig := strings.CutSuffix(internal, ".sig")
			if !ok || !sig {
				continue
			}
			if latest := newestRelease(rel); latest >= newest[internal] {
				newest[internal], j.entries[internal] = latest, f
			}
		}
	} else {
		mods, _ := filepath.Glob(filepath.Join(home, "jmods", "java.*.jmod"))
		for _, m := range mods {
			z, c := openZip(m, 4) // a jmod is "JM", a version, then a zip
			if z == nil {
				continue
			}
			j.closers = append(j.closers, c)
			for _, f := range z.File {
				if internal, ok := strings.CutPrefix(f.Name, "classes/"); ok && strings.HasSuffix(internal, ".class") {
					j.entries[strings.TrimSuffix(internal, ".class")] = f
				}
			}
		}
	}
	if len(j.entries) == 0 {
		for _, c := range j.closers {
			c.Close()
		}
		return nil
	}
	return j
}

// newestRelease is the highest release letter or digit of a ct.sym folder
// name ('7' < '9' < 'A' < 'G' in ASCII, as the releases go).
func newestRelease(rel string) string {
	var top byte
	for i := 0; i < len(rel); i++ {
		top = max(top, rel[i])
	}
	return string(top)
}

// openZip opens path as a zip starting skip bytes in.
func openZip(path string, skip int64) (*zip.Reader, io.Closer) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil
	}
	st, err := f.Stat()
	if err == nil && st.Size() > skip {
		if z, err := zip.NewReader(io.NewSectionReader(f, skip, st.Size()-skip), st.Size()-skip); err == nil {
			return z, f
		}
	}
	f.Close()
	return nil, nil
}

// class is the JDK's type of that internal name (nil: not in this JDK).
func (j *jdk) class(internal string) *classFile {
	j.mu.Lock()
	defer j.mu.Unlock()
	if c, ok := j.parsed[internal]; ok {
		return c
	}
	var c *classFile
	if f := j.entries[internal]; f != nil && f.UncompressedSize64 <= maxClassBytes {
		if rc, err := f.Open(); err == nil {
			b, err := io.ReadAll(io.LimitReader(rc, maxClassBytes))
			rc.Close()
			if err == nil {
				c, _ = parseClass(b)
			}
		}
	}
	j.parsed[internal] = c
	return c
}

var javaImport = regexp.MustCompile(`(?m)^\s*import\s+(static\s+)?([\w.]+)(\.\*)?\s*;`)

// resolve is the JDK type a base written name ("Path", "Map.Entry") means
// in a Java file src: its single-type import, else java.lang's or a
// wildcard import's. ok false when src imports the name from elsewhere,
// no candidate is in the JDK, or two are.
func (j *jdk) resolve(name, src string) (string, bool) {
	first, rest, nested := strings.Cut(name, ".")
	var single, wild []string
	add := func(to *[]string, internal string) {
		if j.entries[internal] != nil && !slices.Contains(*to, internal) {
			*to = append(*to, internal)
		}
	}
	imported, opaque := false, false
	var types []string // the JDK types the file imports by name
	for _, m := range javaImport.FindAllStringSubmatch(src, -1) {
		path := strings.ReplaceAll(m[2], ".", "/")
		switch {
		case m[1] != "":
		case m[3] != "": // import a.b.*; or import a.b.Outer.*;
			add(&wild, path+"/"+first)
			add(&wild, path+"$"+first)
			opaque = opaque || !strings.HasPrefix(path, "java/") && !strings.HasPrefix(path, "javax/")
		case path == first || strings.HasSuffix(path, "/"+first):
			imported = true
			add(&single, path)
			add(&single, outerNested(path))
		default:
			add(&types, path)
		}
	}
	found := single
	if !imported {
		add(&wild, "java/lang/"+first)
		found = wild
	}
	if !imported && len(found) == 0 && !opaque {
		found = j.inheritedMember(types, first)
	}
	if len(found) != 1 {
		return "", false
	}
	internal := found[0]
	if nested {
		internal += "$" + strings.ReplaceAll(rest, ".", "$")
	}
	if j.entries[internal] == nil {
		return "", false
	}
	return internal, true
}

// inheritedMember is the type named name nested in one of types or in
// their supertypes, when exactly one is: a class inherits its bases'
// member types (jimfs's Filter, through SecureDirectoryStream, is
// DirectoryStream.Filter). A file importing a package other than the
// JDK's by wildcard is not asked: that package may hold the name.
func (j *jdk) inheritedMember(types []string, name string) []string {
	var found []string
	seen := map[string]bool{}
	for len(types) > 0 && len(seen) < 64 {
		t := types[0]
		types = types[1:]
		if seen[t] {
			continue
		}
		seen[t] = true
		if j.entries[t+"$"+name] != nil && !slices.Contains(found, t+"$"+name) {
			found = append(found, t+"$"+name)
		}
		if c := j.class(t); c != nil {
			types = append(append(types, c.ifaces...), c.super)
		}
	}
	return found
}

// outerNested writes a path's last segment as nested in the one before
// (java/util/Map/Entry → java/util/Map$Entry).
func outerNested(path string) string {
	if i := strings.LastIndexByte(path, '/'); i > 0 {
		return path[:i] + "$" + path[i+1:]
	}
	return path
}

// contract walks the JDK type internal and its supertypes for sym: the
// first type declaring it without a body (base), whether one supplies a
// body (a class's method or an interface's default: the walk then stops),
// and whether a supertype could not be read (unknown). The nearest
// declaration shadows those above it; an interface's restatement of a
// public method of Object is satisfied by Object.
func (j *jdk) contract(internal string, sym method) (base string, supplied, unknown bool) {
	queue, seen := []string{internal}, map[string]bool{}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if t == "" || seen[t] {
			continue
		}
		seen[t] = true
		c := j.class(t)
		switch m, ok := c.declares(sym); {
		case c == nil:
			unknown = true
		case ok && !m.abstract:
			return "", true, unknown
		case ok && c.iface && j.class("java/lang/Object").concrete(sym):
		case ok:
			if base == "" {
				base = strings.NewReplacer("/", ".", "$", ".").Replace(t)
			}
		case c.iface:
			queue = append(queue, c.ifaces...) // an interface's super_class is Object: not a supertype
		default:
			queue = append(append(queue, c.super), c.ifaces...)
		}
	}
	return base, false, unknown
}

// declares is c's instance method fitting sym, if any.
func (c *classFile) declares(sym method) (classMethod, bool) {
	if c == nil {
		return classMethod{}, false
	}
	for _, m := range c.methods {
		if m.name == sym.Name && !m.static && !m.private && edit.SameParams(sym.params, sym.known, m.params, !c.truncated) {
			return m, true
		}
	}
	return classMethod{}, false
}

// concrete: c declares sym with a body.
func (c *classFile) concrete(sym method) bool {
	m, ok := c.declares(sym)
	return ok && !m.abstract
}
