"""Tests of corpora.py's selection rules and fingerprint on small made-up trees.

    python3 -B -m unittest discover -s benchmarks/corpora
"""

import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "corpora.py")


def write(root, rel, body="x\n"):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(body)


class CorporaTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        self.go, self.py, self.npm = (os.path.join(t, d) for d in ("go", "py", "npm"))
        write(self.go, "fmt/print.go")
        write(self.go, "fmt/print_test.go")
        write(self.go, "fmt/testdata/skip.go")
        write(self.go, ".git/skip.go")
        write(self.go, "net/http/server.go", "a\nb\n")
        write(self.go, "net/http/README")
        write(self.py, "abc.py", "1\n2\n")
        write(self.py, "asyncio/base.py")
        write(self.py, "asyncio/tests/skip.py")
        write(self.py, "asyncio/__pycache__/skip.py")
        write(self.py, "test/skip.py")
        write(self.py, "idlelib/skip.py")
        write(self.py, "notes.txt")
        write(self.npm, "index.js")
        write(self.npm, "lib/cli.mjs")
        write(self.npm, "node_modules/dep/a.cjs")
        write(self.npm, "lib/README.md")
        self.out = os.path.join(t, "out")
        self.env = dict(os.environ, M1ND_GO_SRC=self.go, M1ND_PY_LIB=self.py, M1ND_NPM_DIR=self.npm, M1ND_CORPORA=self.out)

    def tearDown(self):
        self.tmp.cleanup()

    def corpora(self, *args):
        return subprocess.run([sys.executable, SCRIPT] + list(args), env=self.env, capture_output=True, text=True)

    def files(self, name):
        found = []
        for d, _, fs in os.walk(os.path.join(self.out, name)):
            found += [os.path.relpath(os.path.join(d, f), os.path.join(self.out, name)) for f in fs]
        return sorted(found)

    def test_selection(self):
        # The made-up trees are not in corpora.tsv's versions: 1 = mismatch.
        r = self.corpora()
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(self.files("go-std"), ["fmt/print.go", "fmt/print_test.go", "net/http/server.go"])
        self.assertEqual(self.files("py-std"), ["abc.py", "asyncio/base.py"])
        self.assertEqual(self.files("py-335"), ["abc.py", "asyncio/base.py"])
        self.assertEqual(self.files("js-npm"), ["index.js", "lib/cli.mjs", "node_modules/dep/a.cjs"])
        self.assertEqual(self.files("mixed"), ["go/net/http/server.go", "js/lib/cli.mjs", "py/abc.py", "py/asyncio/base.py"])
        self.assertIn("py-std\t2\t3\t", r.stdout)

    def test_fingerprint_equals_the_shell_definition(self):
        self.corpora("go-std")
        r = self.corpora("--check", "go-std")
        fp = r.stdout.splitlines()[1].split("\t")[4]
        shell = subprocess.run(
            "find . -type f -printf '%P\\0' | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16",
            shell=True, cwd=os.path.join(self.out, "go-std"), capture_output=True, text=True).stdout.strip()
        self.assertEqual(fp, shell)

    def test_rebuild_is_deterministic(self):
        first = self.corpora().stdout
        write(os.path.join(self.out, "go-std"), "stray.go")  # a rebuild starts from nothing
        self.assertEqual(self.corpora().stdout, first)

    def test_missing(self):
        r = self.corpora("--check", "js-npm")
        self.assertEqual(r.returncode, 2)
        self.assertIn("corpora.py js-npm", r.stderr)
        self.env["M1ND_GO_SRC"] = os.path.join(self.tmp.name, "nowhere")
        r = self.corpora("go-std")
        self.assertEqual(r.returncode, 2)
        self.assertIn("M1ND_GO_SRC", r.stderr)
        self.assertEqual(self.corpora("nope").returncode, 2)


if __name__ == "__main__":
    unittest.main()
