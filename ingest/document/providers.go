package document

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ProviderTimeout bounds one external conversion.
const ProviderTimeout = 60 * time.Second

// maxConverted bounds what a provider may print.
const maxConverted = 16 << 20

// ProviderStatus describes one optional provider.
type ProviderStatus struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	// Mode is what the provider does for the lane.
	Mode string `json:"mode"`
	// Used says whether this build converts through it (the others are
	// reported for the environment's sake only).
	Used        bool   `json:"used"`
	Detail      string `json:"detail,omitempty"`
	InstallHint string `json:"install_hint,omitempty"`
}

type provider struct {
	name, bin, mode, hint string
	formats               []Format
	python                string // a Python module checked instead of a binary
	env                   string // an environment variable naming a service
}

var providers = []provider{
	{name: "pdftotext", bin: "pdftotext", mode: "PDF text extraction", formats: []Format{PDF}, hint: "Install poppler-utils (apt install poppler-utils, brew install poppler) to read PDF files."},
	{name: "pandoc", bin: "pandoc", mode: "office documents (DOCX) to Markdown", formats: []Format{DOCX}, hint: "Install pandoc (apt install pandoc, brew install pandoc) to read DOCX files."},
	{name: "docling", python: "docling", mode: "broad-spectrum canonicalizer (reported, not used)", hint: "pip install docling"},
	{name: "trafilatura", python: "trafilatura", mode: "HTML/wiki extraction (reported, not used; HTML is read natively)", hint: "pip install trafilatura"},
	{name: "markitdown", python: "markitdown", mode: "lightweight fallback lane (reported, not used)", hint: "pip install markitdown"},
	{name: "grobid", env: "M1ND_GROBID_URL", mode: "scholarly PDF lane (reported, not used)", hint: "Set M1ND_GROBID_URL to a reachable GROBID service."},
}

// ProviderHealth reports which optional providers exist on this machine.
// It never fails: a missing provider is reported with how to get it.
func ProviderHealth(ctx context.Context) (python string, out []ProviderStatus) {
	python, mods := pythonModules(ctx)
	for _, p := range providers {
		s := ProviderStatus{Name: p.name, Mode: p.mode, Used: len(p.formats) > 0}
		switch {
		case p.bin != "":
			if path, err := exec.LookPath(p.bin); err == nil {
				s.Available, s.Detail = true, path
			}
		case p.python != "":
			s.Available = mods[p.python]
			if python == "" {
				s.Detail = "no python3 on PATH"
			}
		case p.env != "":
			if v := os.Getenv(p.env); v != "" {
				s.Available, s.Detail = true, p.env+" is set"
			}
		}
		if !s.Available {
			s.InstallHint = p.hint
		}
		out = append(out, s)
	}
	return python, out
}

var pyOnce sync.Once
var pyPath string
var pyMods map[string]bool

// pythonModules finds python3 and which of the providers' modules it can
// import (once per process; at most a few seconds).
func pythonModules(ctx context.Context) (string, map[string]bool) {
	pyOnce.Do(func() {
		pyMods = map[string]bool{}
		p, err := exec.LookPath("python3")
		if err != nil {
			return
		}
		pyPath = p
		var names []string
		for _, pr := range providers {
			if pr.python != "" {
				names = append(names, pr.python)
			}
		}
		script := "import importlib.util\nfor m in " + fmt.Sprintf("%q", names) + ":\n    print(m, importlib.util.find_spec(m) is not None)\n"
		script = strings.ReplaceAll(script, "\" \"", "\", \"")
		cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		outb, err := exec.CommandContext(cctx, p, "-c", script).Output()
		if err != nil {
			return
		}
		for _, l := range strings.Split(string(outb), "\n") {
			if m, v, ok := strings.Cut(strings.TrimSpace(l), " "); ok {
				pyMods[m] = v == "True"
			}
		}
	})
	return pyPath, pyMods
}

func providerFor(f Format) (provider, bool) {
	for _, p := range providers {
		for _, pf := range p.formats {
			if pf == f {
				if _, err := exec.LookPath(p.bin); err == nil {
					return p, true
				}
			}
		}
	}
	return provider{}, false
}

func providerHint(f Format) string {
	for _, p := range providers {
		for _, pf := range p.formats {
			if pf == f {
				return p.name + ": " + p.hint
			}
		}
	}
	return "no provider known"
}

// Convert turns a PDF or DOCX file into text through its provider; it
// returns the text and the format to parse it as (errNoProvider when the
// provider is not installed).
func Convert(ctx context.Context, f Format, abs string) ([]byte, Format, error) {
	p, ok := providerFor(f)
	if !ok {
		return nil, "", errNoProvider
	}
	ctx, cancel := context.WithTimeout(ctx, ProviderTimeout)
	defer cancel()
	var cmd *exec.Cmd
	as := Text
	switch p.name {
	case "pdftotext":
		cmd = exec.CommandContext(ctx, p.bin, "-enc", "UTF-8", "-layout", "--", abs, "-")
	case "pandoc":
		cmd = exec.CommandContext(ctx, p.bin, "-f", "docx", "-t", "gfm", "--wrap=none", "--", abs)
		as = Markdown
	default:
		return nil, "", errNoProvider
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limitWriter{w: &out, n: maxConverted}, &limitWriter{w: &errb, n: 4096}
	if err := cmd.Run(); err != nil {
		return nil, "", fmt.Errorf("%s failed: %v %s", p.name, err, strings.TrimSpace(errb.String()))
	}
	return out.Bytes(), as, nil
}

// limitWriter keeps at most n bytes and drops the rest.
type limitWriter struct {
	w *bytes.Buffer
	n int
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
