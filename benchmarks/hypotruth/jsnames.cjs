#!/usr/bin/env node
// jsnames.cjs -- the names truth of hypotruth for JavaScript/TypeScript
// (issue 27): benchmarks/deptruth/jsdeps.cjs's dependencies (its module
// resolution and re-export chains come from deptruth/jsresolve.cjs, which
// both scripts require, so the two truths resolve alike), with one more rule, the JS form of
// nametruth.py's: an import statement that takes only names (import { A, B }
// from "m", import type { A } from "m") all of which m re-exports (export {
// A } from "./y", export * from "./y") counts the modules that declare them
// (the ends of the re-export chains) and m and the barrels between as modules
// the importer imports but does not pass through. m is passed through when
// one of the names is declared in m or cannot be followed, for a default or
// namespace import, a side-effect import, require(), import(), and when the
// file also names m in another statement (export ... from "m" included).
//
// Input as jsdeps.cjs (stdin JSON {"root", "files", "packages"}); output
// {"edges": {"a.ts": ["b.ts"]}, "leaves": {"a.ts": ["m.ts"]}, "stats"}.
// Needs the typescript package of benchmarks/deptruth/npm
// (npm ci --prefix benchmarks/deptruth/npm).
'use strict';

const fs = require('fs');
const path = require('path');
const { ts, resolver, analyse } = require(path.join(__dirname, '..', 'deptruth', 'jsresolve.cjs'));

function main() {
  const req = JSON.parse(fs.readFileSync(0, 'utf8'));
  const { files, stats, resolve, parse, chain } = resolver(req, analyseNames);
  const edges = {};
  const leaves = {};
  stats.narrowed = 0;
  for (const rel of files) {
    const out = new Set();
    const leaf = new Set();
    const info = parse(rel);
    const narrowed = new Set(); // specs imported by re-exported names only
    for (const [spec, names] of info.namedOnly) {
      if (info.otherSpecs.has(spec)) continue;
      const t = resolve(rel, spec, ts.ModuleKind.ESNext, false);
      if (!t) continue;
      const ends = [];
      const between = [t];
      let ok = names.length > 0;
      for (const name of names) {
        const c = chain(t, name, 0, new Set());
        if (!c.length || name === 'default') {
          ok = false; // declared in t, or not followed: t is passed through
          break;
        }
        ends.push(c[c.length - 1]);
        between.push(...c.slice(0, -1));
      }
      if (!ok) continue;
      narrowed.add(spec);
      stats.narrowed++;
      for (const e of ends) if (e !== rel) out.add(e);
      for (const b of between) if (b !== rel) leaf.add(b);
    }
    for (const { spec, mode } of info.imports) {
      stats.imports++;
      const trel = resolve(rel, spec, mode, true);
      if (trel && trel !== rel && !narrowed.has(spec)) out.add(trel);
    }
    for (const { spec, mode, name } of info.uses) {
      if (narrowed.has(spec)) continue;
      const trel = resolve(rel, spec, mode, false);
      if (!trel) continue;
      for (const t of chain(trel, name, 0, new Set())) {
        stats.reexport_hops++;
        if (t !== rel) out.add(t);
      }
    }
    for (const t of out) leaf.delete(t);
    if (out.size) edges[rel] = [...out].sort();
    if (leaf.size) leaves[rel] = [...leaf].sort();
  }
  process.stdout.write(JSON.stringify({ edges, leaves, stats }) + '\n');
}

// analyseNames is analyse plus what the names rule needs: per specifier, the
// names taken by import statements that take only names (namedOnly), and the
// specifiers any other construct names (otherSpecs).
function analyseNames(rel, text, stats) {
  const info = analyse(rel, text, stats);
  const lit = (n) => n && ts.isStringLiteral(n) ? n.text : undefined;
  const namedOnly = new Map(); // spec -> names taken by named-only import statements
  const otherSpecs = new Set(); // specs named by any other construct
  const spot = (n) => {
    if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference) && lit(n.moduleReference.expression)) {
      otherSpecs.add(lit(n.moduleReference.expression));
    } else if (ts.isCallExpression(n) && n.arguments.length >= 1 && lit(n.arguments[0]) &&
      (n.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(n.expression) && n.expression.text === 'require'))) {
      otherSpecs.add(lit(n.arguments[0]));
    }
    ts.forEachChild(n, spot);
  };
  spot(info.sf);
  for (const st of info.sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const spec = lit(st.moduleSpecifier);
      const c = st.importClause;
      if (spec && (!c || c.name || !c.namedBindings || ts.isNamespaceImport(c.namedBindings))) otherSpecs.add(spec);
      if (spec && c && !c.name && c.namedBindings && ts.isNamedImports(c.namedBindings)) {
        const l = namedOnly.get(spec) || [];
        for (const el of c.namedBindings.elements) l.push((el.propertyName || el.name).text);
        namedOnly.set(spec, l);
      }
    } else if (ts.isExportDeclaration(st)) {
      const spec = lit(st.moduleSpecifier);
      if (spec) otherSpecs.add(spec);
    }
  }
  return { ...info, namedOnly, otherSpecs };
}

main();
