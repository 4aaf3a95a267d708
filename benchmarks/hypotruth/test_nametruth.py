#!/usr/bin/env python3
"""Tests of the names truth for JavaScript/TypeScript (jsnames.cjs through
nametruth.js_name_graph): python3 benchmarks/hypotruth/test_nametruth.py"""

import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nametruth  # noqa: E402

FILES = {
    "web/lib.ts": "export { X } from './b';\nexport * from './c';\n",  # a barrel not named index
    "web/main.ts": "export { X } from './b';\nexport { Y } from './c';\nexport const produce = () => 1;\n",
    "web/b.ts": "export class X {}\n",
    "web/c.ts": "import './side';\nexport class Y {}\n",
    "web/side.ts": "export const s = 1;\n",
    "web/a.ts": "import { X } from './lib';\nexport const a = X;\n",
    "web/t.ts": "import type { X } from './lib';\nexport let t: X;\n",
    "web/p.ts": "import { X, produce } from './main';\nexport const p = [X, produce];\n",
    "web/q.ts": "import { Y } from './lib';\nexport const q = Y;\n",
    "web/n.ts": "import * as L from './lib';\nexport const n = L.X;\n",
    "web/r.ts": "import { X } from './lib';\nexport * from './lib';\nexport const r = X;\n",
    "web/d.ts": "import { X } from './lib';\nconst m = import('./lib');\nexport const d = [X, m];\n",
}


class JSNames(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("node"):
            raise unittest.SkipTest("no node")
        cls.root = tempfile.mkdtemp()
        for f, text in FILES.items():
            os.makedirs(os.path.join(cls.root, os.path.dirname(f)), exist_ok=True)
            with open(os.path.join(cls.root, f), "w") as fh:
                fh.write(text)
        cls.edges, cls.leaves, cls.stats = nametruth.js_name_graph(cls.root, sorted(FILES))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def reach(self, a):
        return nametruth.reach(self.edges, self.leaves, a) - {a}

    def test_names_through_a_barrel(self):
        # a.ts takes X, which lib.ts re-exports from b.ts: b.ts, and lib.ts
        # imported but not passed through, so c.ts (and side.ts) are not reached.
        self.assertEqual(self.reach("web/a.ts"), {"web/b.ts", "web/lib.ts"})
        self.assertEqual(self.reach("web/t.ts"), {"web/b.ts", "web/lib.ts"})
        self.assertEqual(self.reach("web/q.ts"), {"web/c.ts", "web/side.ts", "web/lib.ts"})

    def test_passed_through(self):
        # produce is declared in main.ts: main.ts runs for it, all of it counts.
        self.assertEqual(self.reach("web/p.ts"), {"web/main.ts", "web/b.ts", "web/c.ts", "web/side.ts"})
        # a namespace import, a re-export of the module, a dynamic import.
        for f in ("web/n.ts", "web/r.ts", "web/d.ts"):
            self.assertIn("web/c.ts", self.reach(f), f)

    def test_counts(self):
        self.assertEqual(self.stats["hub_narrowed"], 3)



PY = {
    "pkg/__init__.py": "",
    "pkg/api.py": "from .b import X\nfrom .c import Y\n\n__all__ = ['X', 'Y']\n",  # a barrel not named __init__
    "pkg/b.py": "class X:\n    pass\n",
    "pkg/c.py": "class Y:\n    pass\n",
    "a.py": "from pkg.api import X\n",
    "n.py": "import pkg.api\n",
}


class PyNames(unittest.TestCase):
    def test_barrel_not_named_init(self):
        root = tempfile.mkdtemp()
        try:
            for f, text in PY.items():
                os.makedirs(os.path.join(root, os.path.dirname(f)), exist_ok=True)
                with open(os.path.join(root, f), "w") as fh:
                    fh.write(text)
            edges, leaves, _ = nametruth.name_graph(root, sorted(PY))
            self.assertNotIn("pkg/c.py", nametruth.reach(edges, leaves, "a.py"))
            self.assertIn("pkg/b.py", nametruth.reach(edges, leaves, "a.py"))
            self.assertIn("pkg/c.py", nametruth.reach(edges, leaves, "n.py"))  # a namespace import
            edges, leaves, _ = nametruth.name_graph(root, sorted(PY), init_only=True)
            self.assertIn("pkg/c.py", nametruth.reach(edges, leaves, "a.py"))
        finally:
            shutil.rmtree(root)


if __name__ == "__main__":
    unittest.main()
