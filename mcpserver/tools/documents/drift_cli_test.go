package documents

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/m1nd-go/m1nd/mcpserver/tools/tooltest"
)

// What a package declares: argparse and click literals are read; typer,
// a computed name or click.Option([...]) leave the command unknown; a
// file with no declaration is not part of the parser.
func TestReadDecls(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       string
	}{
		{"argparse", "p = argparse.ArgumentParser()\np.add_argument('--python', '-p', help='x')\np.add_argument(\"spec\")\nsub = p.add_subparsers()\ni = sub.add_parser('install')\ni.add_argument(\n    '--force',\n    action='store_true',\n)\n",
			"found flags=[--force --python] subs=[install] passOn=false unknown=false"},
		{"click", "@click.group()\ndef cli():\n    pass\n\n@cli.command(name='insert')\n@click.option('--pk', '-p')\n@click.option('--shout/--no-shout', default=False)\ndef insert_rows(pk):\n    pass\n\n@cli.command()\n@click.argument('paths', nargs=-1)\ndef drop_table(paths):\n    pass\n",
			"found flags=[--no-shout --pk --shout] subs=[cli drop-table drop_table insert] passOn=true unknown=false"},
		{"computed", "for name in NAMES:\n    p.add_argument('--' + name)\n", "found flags=[] subs=[] passOn=false unknown=true"},
		{"star", "p.add_argument(*names, **kw)\n", "found flags=[] subs=[] passOn=false unknown=true"},
		{"typer", "import typer\n\ndef main(force: bool = typer.Option(False)):\n    pass\n", "found flags=[] subs=[] passOn=false unknown=true"},
		{"click Option class", "opt = click.Option(['--x'])\n", "found flags=[] subs=[] passOn=false unknown=true"},
		{"remainder", "p.add_argument('app', nargs=argparse.REMAINDER)\n", "found flags=[] subs=[] passOn=true unknown=false"},
		{"a def named option", "def option(self, name):\n    return name\n", "none"},
		{"no parser", "def f(x):\n    return x\n", "none"},
	} {
		d := cliDecl{flags: map[string]bool{}, subs: map[string]bool{}}
		got := "none"
		if readDecls(tc.text, &d) {
			got = fmt.Sprintf("found flags=%v subs=%v passOn=%v unknown=%v", keys(d.flags), keys(d.subs), d.passOn, d.unknown)
		}
		if got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, got, tc.want)
		}
	}
}

func keys(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Which options of a page's line are claims about the command: long
// options after the program (prompt or inline literal), not quoted
// values, not after "--" or a pipe, prefixes of declared ones accepted;
// with a pass-on parser only up to the first word after subcommands.
func TestUndeclaredFlags(t *testing.T) {
	d := cliDecl{prog: "kit", flags: map[string]bool{"--python": true, "--force": true, "--help": true}, subs: map[string]bool{"install": true, "run": true}}
	pass := d
	pass.passOn = true
	for _, tc := range []struct {
		line string
		d    cliDecl
		want []string
	}{
		{"$ kit install black --python3.7", d, []string{"--python3.7"}},
		{"    kit install black --python=python3.12 --forse", d, []string{"--forse"}},
		{"kit install --pyth 3.12 --force", d, nil},
		{"Run ``kit install --nope`` first.", d, []string{"--nope"}},
		{"kit install --pip-args '--pre' black", d, []string{"--pip-args"}},
		{"kit run black -- --check", d, nil},
		{"kit run black --check | grep --color x", d, []string{"--check"}},
		{"kit run black --check", pass, nil},
		{"kit run --nope black --check", pass, []string{"--nope"}},
		{"kit --<option>", d, nil},
		{"Use the kit --nope option", d, nil},
		{"kitten --nope", d, nil},
		{"kit install black --forse.", d, []string{"--forse"}},
	} {
		var got []string
		for _, rest := range commandLines(tc.line, tc.d.prog) {
			got = append(got, undeclaredFlags(tc.d, rest)...)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.line, diff)
		}
	}
}

// End to end: a console script whose argparse parser lacks an option the
// docs pass is a missing_target; a typer command is not judged.
func TestDocumentDriftFindsUndeclaredCLIOptions(t *testing.T) {
	t.Parallel()
	dir := srcCommitted(t, map[string]string{
		"pyproject.toml":      "[project]\nname = \"kit\"\n\n[project.scripts]\nkit = \"kit.main:cli\"\n",
		"src/kit/__init__.py": "",
		"src/kit/main.py":     "import argparse\n\n\ndef cli():\n    p = argparse.ArgumentParser()\n    sub = p.add_subparsers()\n    i = sub.add_parser(\"install\")\n    i.add_argument(\"spec\")\n    i.add_argument(\"--python\")\n    return p.parse_args()\n",
		"docs/usage.md":       "# Usage\n\n```console\n$ kit install black --python3.7\n$ kit install black --python python3.12\n$ kit install black --verbose\n```\n",
	})
	commitAt(t, dir, "2024-01-01T00:00:00Z", "docs")
	out := tooltest.MustCall(t, driftServer(t, dir), "document_drift", map[string]any{"agent_id": "t", "lower_confidence": true})
	got := strings.Join(findingLines(out), "\n")
	want := "4 missing_target | the page runs kit with --python3.7, which its parser (src/kit/main.py) does not declare (3 options declared)\n" +
		"6 missing_target | the page runs kit with --verbose, which its parser (src/kit/main.py) does not declare (3 options declared)"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// Console scripts from each form of metadata: pyproject, setup.cfg, a
// setup.py list of strings and a setup.py ini string (sqlite-utils).
func TestConsoleScripts(t *testing.T) {
	for _, tc := range []struct {
		file, text string
		want       [][2]string
	}{
		{"pyproject.toml", "[project]\nname = \"kit\"\n\n[project.scripts]\nkit = \"kit.main:cli\"\n", [][2]string{{"kit", "kit.main"}}},
		{"setup.cfg", "[options.entry_points]\nconsole_scripts =\n    kit = kit.main:cli\n\n[other]\nx = y:z\n", [][2]string{{"kit", "kit.main"}}},
		{"setup.py", "setup(entry_points={'console_scripts': ['kit = kit.main:cli']})\n", [][2]string{{"kit", "kit.main"}}},
		{"setup.py", "setup(\n    entry_points=\"\"\"\n        [console_scripts]\n        kit-utils=kit_utils.cli:cli\n    \"\"\",\n)\n", [][2]string{{"kit-utils", "kit_utils.cli"}}},
	} {
		src := &driftSources{text: map[string][]byte{tc.file: []byte(tc.text), "pyproject.toml": nil, "setup.cfg": nil, "setup.py": nil}}
		src.text[tc.file] = []byte(tc.text)
		if diff := cmp.Diff(tc.want, consoleScripts(src)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, diff)
		}
	}
}
