#!/usr/bin/env node
// Ground truth for the deptruth benchmark: file-level import dependencies of
// a JavaScript/TypeScript repository, found by the TypeScript compiler API
// (the version pinned in npm/package.json; install it with
// `npm ci --prefix benchmarks/deptruth/npm`).
//
// Input (stdin, JSON): {"root": "/abs/repo", "files": [...], "packages": [...]}
// -- the repository's tracked source files (.js .jsx .ts .tsx .mjs .cjs .mts
// .cts, none under node_modules) and its package.json files. Output (stdout,
// JSON): {"files": [...], "edges": {"a.ts": ["b.ts"]}, "stats": {...},
// "unresolved": {"specifier": count}}.
//
// Rules (see README.md beside this script):
//  * imports are those of ts.preProcessFile(text, true, true): import,
//    export ... from, import type, require(), dynamic import() -- plus what
//    its scanner misses and the parsed syntax tree shows (it skips
//    `export * as ns from "./x"`; counted in stats.ast_only);
//  * each is resolved by ts.resolveModuleName with moduleResolution bundler,
//    allowJs, resolveJsonModule off, and the baseUrl, paths and
//    customConditions of the nearest tsconfig.json at or above the file; require() calls resolve in CommonJS mode
//    (the "require" condition), the rest in ESM mode ("import");
//  * a bare specifier naming a package of the repository (the "name" of any
//    package.json in it) resolves into that package's directory, through its
//    exports / types / main / index, as if it were installed in
//    node_modules (the host maps node_modules/<name> to the directory);
//  * a .d.ts (.d.mts, .d.cts) result is replaced by the source file beside
//    it when there is one (x.ts, x.tsx, x.js, x.jsx; x.mts, x.mjs; x.cts,
//    x.cjs);
//  * a name imported from a module (import { A } from "m", or ns.A where
//    import * as ns from "m") that m re-exports (export { A } from "./y",
//    export { X as A } from "./y", export * from "./y") also makes the file
//    depend on every file along that re-export chain up to the one declaring
//    A (at most 5 hops) -- as the Python truth follows re-exports and module
//    attributes: the file uses A, wherever the barrel got it from;
//  * targets must be files of the input list; no self edges.
//
// The resolution itself lives in jsresolve.cjs, shared with
// ../hypotruth/jsnames.cjs.
'use strict';

const fs = require('fs');
const path = require('path');
const { resolver } = require('./jsresolve.cjs');

function main() {
  const req = JSON.parse(fs.readFileSync(0, 'utf8'));
  const { root, files, ws, stats, unresolved, notes, resolve, parse, chain } = resolver(req);
  const edges = {};
  for (const rel of files) {
    const out = new Set();
    const info = parse(rel);
    for (const { spec, mode } of info.imports) {
      stats.imports++;
      const trel = resolve(rel, spec, mode, true);
      if (trel && trel !== rel) out.add(trel);
    }
    for (const { spec, mode, name } of info.uses) {
      const trel = resolve(rel, spec, mode, false);
      if (!trel) continue;
      for (const t of chain(trel, name, 0, new Set())) {
        stats.reexport_hops++;
        if (t !== rel) out.add(t);
      }
    }
    if (out.size) edges[rel] = [...out].sort();
  }
  process.stdout.write(JSON.stringify({ files, edges, stats, unresolved, notes, workspace_packages: Object.fromEntries([...ws].map(([k, v]) => [k, path.relative(root, v) || '.'])) }) + '\n');
}

main();
