package extref

import (
	"path"
	"regexp"
	"strings"
)

type lang uint8

const (
	langOther lang = iota // code of another language: literals only
	langText              // docs, configuration, shell: words
	langPython
	langGo
	langJS
	langRust
	langJVM
	langC
	langRuby
)

var extLang = map[string]lang{
	".py": langPython, ".pyi": langPython,
	".go": langGo,
	".js": langJS, ".jsx": langJS, ".mjs": langJS, ".cjs": langJS, ".ts": langJS, ".tsx": langJS, ".mts": langJS, ".cts": langJS, ".vue": langJS, ".svelte": langJS,
	".rs":   langRust,
	".java": langJVM, ".kt": langJVM, ".kts": langJVM, ".scala": langJVM, ".groovy": langJVM,
	".c": langC, ".h": langC, ".cc": langC, ".cpp": langC, ".cxx": langC, ".hpp": langC, ".hh": langC, ".hxx": langC, ".m": langC, ".mm": langC,
	".rb": langRuby,
	".md": langText, ".markdown": langText, ".rst": langText, ".txt": langText, ".adoc": langText,
	".yaml": langText, ".yml": langText, ".toml": langText, ".ini": langText, ".cfg": langText, ".conf": langText,
	".env": langText, ".properties": langText, ".sh": langText, ".bash": langText, ".zsh": langText,
	".mk": langText, ".dockerfile": langText, ".json": langText, ".xml": langText,
}

var nameLang = map[string]lang{"Dockerfile": langText, "Makefile": langText, "GNUmakefile": langText, "Procfile": langText, "Jenkinsfile": langText, "Vagrantfile": langRuby, "Gemfile": langRuby, "Rakefile": langRuby}

func languageOf(rel string) lang {
	base := path.Base(rel)
	if l, ok := nameLang[base]; ok {
		return l
	}
	if strings.HasPrefix(base, ".env") || strings.HasPrefix(base, "Dockerfile") {
		return langText
	}
	return extLang[strings.ToLower(path.Ext(base))]
}

var (
	pyImport    = regexp.MustCompile(`^\s*import\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)\s*(?:#.*)?$`)
	pyFrom      = regexp.MustCompile(`^\s*from\s+(\.*[\w.]*)\s+import\b`)
	goSingle    = regexp.MustCompile(`^\s*import\s+(?:[\w.]+\s+)?"([^"]+)"`)
	goBlockLine = regexp.MustCompile(`^\s*(?:[\w.]+\s+)?"([^"]+)"`)
	jsFrom      = regexp.MustCompile(`(?:^|[\s}])from\s*['"]([^'"]+)['"]\s*;?\s*(?://.*)?$`)
	jsBare      = regexp.MustCompile(`^\s*import\s*['"]([^'"]+)['"]`)
	jsRequire   = regexp.MustCompile(`\b(?:require|import)\s*\(\s*['"]([^'"]+)['"]\s*\)`)
	rustUse     = regexp.MustCompile(`^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+(?:::)?([A-Za-z_]\w*)`)
	rustCrate   = regexp.MustCompile(`^\s*extern\s+crate\s+([A-Za-z_]\w*)`)
	jvmImport   = regexp.MustCompile(`^\s*import\s+(?:static\s+)?([A-Za-z_][\w.]*)`)
	cInclude    = regexp.MustCompile(`^\s*#\s*(?:include|import)\s*<([^>]+)>`)
	rbRequire   = regexp.MustCompile(`^\s*(?:require|gem)\s*\(?\s*['"]([^'"]+)['"]`)
)

// imports returns the imports of a line of code (none for other lines).
func (s *scanner) imports(line string) []Ref {
	if !s.goBlock && !mayImport(s.lang, line) {
		return nil // most lines: no regular expression runs
	}
	switch s.lang {
	case langPython:
		return pythonImports(line)
	case langGo:
		return s.goImports(line)
	case langJS:
		return jsImports(line)
	case langRust:
		if m := rustUse.FindStringSubmatch(line); m != nil {
			return rustImport(m[1])
		}
		if m := rustCrate.FindStringSubmatch(line); m != nil {
			return rustImport(m[1])
		}
	case langJVM:
		if m := jvmImport.FindStringSubmatch(line); m != nil {
			return jvmImports(m[1])
		}
	case langC:
		if m := cInclude.FindStringSubmatch(line); m != nil {
			h := strings.TrimSpace(m[1])
			top, _, _ := strings.Cut(h, "/")
			return []Ref{{Kind: Import, Value: h, Key: top, Ecosystem: "c", Stdlib: cStd[h] || cSysDirs[top]}}
		}
	case langRuby:
		if m := rbRequire.FindStringSubmatch(line); m != nil {
			top, _, _ := strings.Cut(m[1], "/")
			if strings.HasPrefix(m[1], ".") {
				return nil
			}
			return []Ref{{Kind: Import, Value: m[1], Key: top, Ecosystem: "ruby", Stdlib: rubyStd[top]}}
		}
	}
	return nil
}

// mayImport is a cheap test that a line can hold an import of lang.
func mayImport(l lang, line string) bool {
	t := strings.TrimSpace(line)
	switch l {
	case langPython:
		return strings.HasPrefix(t, "import") || strings.HasPrefix(t, "from")
	case langGo, langJVM:
		return strings.HasPrefix(t, "import")
	case langJS:
		return strings.Contains(line, "from") || strings.Contains(line, "import") || strings.Contains(line, "require")
	case langRust:
		return strings.Contains(t, "use ") || strings.HasPrefix(t, "extern")
	case langC:
		return strings.HasPrefix(t, "#")
	case langRuby:
		return strings.HasPrefix(t, "require") || strings.HasPrefix(t, "gem")
	}
	return false
}

func pythonImports(line string) []Ref {
	var mods []string
	if m := pyFrom.FindStringSubmatch(line); m != nil {
		mods = []string{m[1]}
	} else if m := pyImport.FindStringSubmatch(line); m != nil {
		for _, part := range strings.Split(m[1], ",") {
			mod, _, _ := strings.Cut(strings.TrimSpace(part), " ")
			mods = append(mods, mod)
		}
	}
	var out []Ref
	for _, mod := range mods {
		if mod == "" || strings.HasPrefix(mod, ".") {
			continue // relative: inside the package
		}
		top, _, _ := strings.Cut(mod, ".")
		if top == "__future__" {
			continue
		}
		out = append(out, Ref{Kind: Import, Value: mod, Key: top, Ecosystem: "python", Stdlib: pyStd[top]})
	}
	return out
}

func (s *scanner) goImports(line string) []Ref {
	t := strings.TrimSpace(line)
	if s.goBlock {
		if strings.HasPrefix(t, ")") {
			s.goBlock = false
			return nil
		}
		if m := goBlockLine.FindStringSubmatch(line); m != nil {
			return goImport(m[1])
		}
		return nil
	}
	if strings.HasPrefix(t, "import") && strings.HasSuffix(strings.TrimSpace(strings.TrimPrefix(t, "import")), "(") {
		s.goBlock = true
		return nil
	}
	if m := goSingle.FindStringSubmatch(line); m != nil {
		return goImport(m[1])
	}
	return nil
}

// threeSegmentHosts host repositories at host/owner/name.
var threeSegmentHosts = setOf("github.com gitlab.com bitbucket.org golang.org codeberg.org git.sr.ht")

func goImport(p string) []Ref {
	if p == "C" {
		return nil // cgo
	}
	segs := strings.Split(p, "/")
	if !strings.Contains(segs[0], ".") {
		return []Ref{{Kind: Import, Value: p, Key: p, Ecosystem: "go", Stdlib: true}}
	}
	n := 2
	if threeSegmentHosts[segs[0]] {
		n = 3
	}
	return []Ref{{Kind: Import, Value: p, Key: strings.Join(segs[:min(n, len(segs))], "/"), Ecosystem: "go"}}
}

func jsImports(line string) []Ref {
	var out []Ref
	seen := map[string]bool{}
	for _, re := range []*regexp.Regexp{jsFrom, jsBare, jsRequire} {
		for _, m := range re.FindAllStringSubmatch(line, -1) {
			spec := m[1]
			if seen[spec] || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.Contains(spec, "://") {
				continue
			}
			seen[spec] = true
			name, builtin := npmPackage(spec)
			out = append(out, Ref{Kind: Import, Value: spec, Key: name, Ecosystem: "npm", Stdlib: builtin})
		}
	}
	return out
}

// npmPackage is the package of a bare specifier ("@scope/pkg/sub" →
// "@scope/pkg", "lodash/fp" → "lodash") and whether it is a Node builtin.
func npmPackage(spec string) (string, bool) {
	if rest, ok := strings.CutPrefix(spec, "node:"); ok {
		top, _, _ := strings.Cut(rest, "/")
		return top, true
	}
	segs := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") && len(segs) > 1 {
		return segs[0] + "/" + segs[1], false
	}
	return segs[0], nodeBuiltins[segs[0]]
}

func rustImport(name string) []Ref {
	switch name {
	case "crate", "self", "super", "Self":
		return nil
	}
	return []Ref{{Kind: Import, Value: name, Key: name, Ecosystem: "cargo", Stdlib: name == "std" || name == "core" || name == "alloc" || name == "proc_macro" || name == "test"}}
}

func jvmImports(mod string) []Ref {
	segs := strings.Split(strings.TrimSuffix(mod, ".*"), ".")
	// The package: the segments before the first capitalised one (a class).
	n := len(segs)
	for i, s := range segs {
		if s != "" && s[0] >= 'A' && s[0] <= 'Z' {
			n = i
			break
		}
	}
	pkg := strings.Join(segs[:n], ".")
	if pkg == "" {
		return nil
	}
	key := strings.Join(segs[:min(n, 3)], ".")
	std := false
	switch segs[0] {
	case "java", "javax", "jdk", "sun", "kotlin", "scala", "groovy":
		std = true
	}
	return []Ref{{Kind: Import, Value: pkg, Key: key, Ecosystem: "jvm", Stdlib: std}}
}

// Standard libraries (top-level names).
var (
	pyStd = setOf(`abc aifc argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect
builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall
concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm
decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput
fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq
hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3
linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt
multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib
pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd
py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy
sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd
sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau
symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit
tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata
unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc
zipapp zipfile zipimport zlib zoneinfo typing_extensions _thread __main__`)
	nodeBuiltins = setOf(`assert async_hooks buffer child_process cluster console constants crypto dgram
diagnostics_channel dns domain events fs http http2 https inspector module net os path perf_hooks process
punycode querystring readline repl stream string_decoder sys timers tls trace_events tty url util v8 vm wasi
worker_threads zlib test`)
	rubyStd = setOf(`json set fileutils pathname time date yaml erb open3 optparse logger securerandom digest
net uri socket stringio tempfile tmpdir csv benchmark English etc forwardable singleton ostruct open-uri
openssl pp prettyprint shellwords strscan timeout zlib base64 bigdecimal io rbconfig monitor thread`)
	cStd = setOf(`assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h
math.h setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h
stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h unistd.h fcntl.h dirent.h pthread.h
dlfcn.h poll.h termios.h netdb.h glob.h regex.h syslog.h pwd.h grp.h sched.h semaphore.h spawn.h
algorithm any array atomic bitset chrono codecvt complex condition_variable deque exception filesystem
forward_list fstream functional future initializer_list iomanip ios iosfwd iostream istream iterator limits
list locale map memory mutex new numeric optional ostream queue random ratio regex scoped_allocator set
shared_mutex span sstream stack stdexcept streambuf string string_view system_error thread tuple type_traits
typeindex typeinfo unordered_map unordered_set utility valarray variant vector cassert cctype cerrno cfloat
climits cmath cstdarg cstddef cstdint cstdio cstdlib cstring ctime cwchar format ranges concepts coroutine
bit numbers source_location compare version execution charconv memory_resource barrier latch semaphore
stop_token syncstream expected print generator`)
	cSysDirs = setOf("sys arpa netinet linux asm bits")
)
