// jsresolve.cjs -- the module resolution shared by jsdeps.cjs (deptruth's
// dependency truth) and ../hypotruth/jsnames.cjs (hypotruth's names truth),
// kept in one place so that the two truths resolve alike. The rules are
// listed in jsdeps.cjs's header and README.md beside this file.
//
// resolver(req, analyseFile) reads the request ({"root", "files",
// "packages"}) and returns the files, the counters and the resolve / parse /
// chain functions both scripts walk with; analyseFile (default analyse)
// reads one file and may add fields of its own to analyse's answer.
'use strict';

const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

let ts;
try {
  ts = createRequire(path.join(__dirname, 'npm', 'package.json'))('typescript');
} catch (e) {
  process.stderr.write(`jsdeps: the typescript package is not installed: run npm ci --prefix ${path.join(__dirname, 'npm')}\n`);
  process.exit(3);
}

function resolver(req, analyseFile = analyse) {
  const root = path.resolve(req.root);
  const files = [...new Set(req.files)].sort();
  const universe = new Set(files);

  // Workspace packages: name -> absolute directory (the shallowest wins).
  const ws = new Map();
  const pkgs = [...(req.packages || [])].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  for (const p of pkgs) {
    try {
      const j = JSON.parse(fs.readFileSync(path.join(root, p), 'utf8'));
      if (typeof j.name === 'string' && j.name && !ws.has(j.name)) ws.set(j.name, path.dirname(path.join(root, p)));
    } catch (e) {
      // not JSON: not a package
    }
  }

  // node_modules/<workspace name>/rest -> <package dir>/rest
  const mapPath = (p) => {
    const i = p.lastIndexOf('/node_modules/');
    if (i < 0) return p;
    const rest = p.slice(i + '/node_modules/'.length);
    const segs = rest.split('/');
    const name = segs[0].startsWith('@') ? segs.slice(0, 2).join('/') : segs[0];
    const dir = ws.get(name);
    if (!dir) return p;
    return dir + rest.slice(name.length);
  };
  const inRoot = (p) => p === root || p.startsWith(root + '/');
  const host = {
    fileExists: (p) => ts.sys.fileExists(mapPath(p)),
    readFile: (p) => ts.sys.readFile(mapPath(p)),
    directoryExists: (p) => (ws.size > 0 && p.endsWith('/node_modules') && inRoot(p)) || ts.sys.directoryExists(mapPath(p)),
    realpath: (p) => mapPath(p),
    getCurrentDirectory: () => root,
    getDirectories: (p) => ts.sys.getDirectories(mapPath(p)),
    useCaseSensitiveFileNames: true,
  };

  const options = {
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ESNext,
    allowJs: true,
    resolveJsonModule: false,
    noEmit: true,
  };
  const notes = [];
  // Each file resolves with the nearest tsconfig.json at or above its
  // directory (inside the repository): its baseUrl, paths and
  // customConditions over the defaults above.
  const configs = new Map(); // dir -> {options, cache}
  const configFor = (dir) => {
    if (configs.has(dir)) return configs.get(dir);
    let c;
    const tsconfig = path.join(dir, 'tsconfig.json');
    if (fs.existsSync(tsconfig)) {
      const o = { ...options };
      const read = ts.readConfigFile(tsconfig, ts.sys.readFile);
      if (read.config) {
        const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dir, undefined, tsconfig);
        for (const k of ['baseUrl', 'paths', 'pathsBasePath', 'customConditions']) {
          if (parsed.options[k] !== undefined) {
            o[k] = parsed.options[k];
            notes.push(`${path.relative(root, tsconfig) || 'tsconfig.json'} ${k}: ${JSON.stringify(parsed.options[k])}`);
          }
        }
      }
      c = { options: o, cache: ts.createModuleResolutionCache(dir, (x) => x, o) };
    } else if (dir === root || !inRoot(path.dirname(dir))) {
      c = { options, cache: ts.createModuleResolutionCache(root, (x) => x, options) };
    } else {
      c = configFor(path.dirname(dir));
    }
    configs.set(dir, c);
    return c;
  };

  const sourceFor = (abs) => {
    const m = abs.match(/^(.*)\.d\.(ts|mts|cts)$/);
    if (!m) return abs;
    const alts = { ts: ['.ts', '.tsx', '.js', '.jsx'], mts: ['.mts', '.mjs'], cts: ['.cts', '.cjs'] }[m[2]];
    for (const e of alts) {
      const rel = path.relative(root, m[1] + e);
      if (universe.has(rel)) return m[1] + e;
    }
    return abs;
  };

  const stats = { imports: 0, reexport_hops: 0, ast_only: 0, resolved: 0, external: 0, unresolved_relative: 0, unresolved_workspace: 0, outside: 0, dts_to_source: 0 };
  const unresolved = {};
  const isBare = (s) => !(s.startsWith('.') || s.startsWith('/'));
  const pkgName = (s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]);

  // resolve maps a specifier of file rel to a file of the universe, or
  // undefined (counting why in stats when count is set).
  const resolve = (rel, spec, mode, count) => {
    const abs = path.join(root, rel);
    const { options: opts, cache } = configFor(path.dirname(abs));
    const r = ts.resolveModuleName(spec, abs, opts, host, cache, undefined, mode);
    const rm = r.resolvedModule;
    if (!rm) {
      if (!count) return undefined;
      if (!isBare(spec)) {
        stats.unresolved_relative++;
        unresolved[spec] = (unresolved[spec] || 0) + 1;
      } else if (ws.has(pkgName(spec))) {
        stats.unresolved_workspace++;
        unresolved[spec] = (unresolved[spec] || 0) + 1;
      } else {
        stats.external++;
      }
      return undefined;
    }
    const target = sourceFor(mapPath(rm.resolvedFileName));
    if (count && target !== mapPath(rm.resolvedFileName)) stats.dts_to_source++;
    const trel = path.relative(root, target);
    if (trel.startsWith('..') || path.isAbsolute(trel) || trel.split('/').includes('node_modules') || !universe.has(trel)) {
      if (count) stats.outside++;
      return undefined;
    }
    if (count) stats.resolved++;
    return trel;
  };
  const parsed = new Map(); // rel -> {imports, uses, exports}
  const parse = (rel) => {
    if (parsed.has(rel)) return parsed.get(rel);
    let text = '';
    try {
      text = fs.readFileSync(path.join(root, rel), 'utf8');
    } catch (e) {
      // unreadable: no imports
    }
    const info = analyseFile(rel, text, stats);
    parsed.set(rel, info);
    return info;
  };
  // chain lists the files along the re-export chain of name in module m
  // (not m itself) up to the one declaring it.
  const chain = (m, name, depth, seen) => {
    const key = m + '\0' + name;
    if (depth >= 5 || seen.has(key)) return [];
    seen.add(key);
    const ex = parse(m).exports;
    if (ex.local.has(name)) return [];
    const named = ex.named.get(name);
    if (named) {
      const t = resolve(m, named.spec, ts.ModuleKind.ESNext, false);
      return t ? [t, ...chain(t, named.orig, depth + 1, seen)] : [];
    }
    for (const spec of ex.stars) {
      const t = resolve(m, spec, ts.ModuleKind.ESNext, false);
      if (!t) continue;
      const sub = chain(t, name, depth + 1, seen);
      if (sub.length || parse(t).exports.local.has(name)) return [t, ...sub];
    }
    return [];
  };

  return { root, files, ws, stats, unresolved, notes, resolve, parse, chain };
}

const scriptKinds = {
  '.ts': 'TS', '.mts': 'TS', '.cts': 'TS', '.tsx': 'TSX', '.js': 'JS', '.mjs': 'JS', '.cjs': 'JS', '.jsx': 'JSX',
};

// importsOf lists a file's module specifiers with their resolution mode:
// those of ts.preProcessFile, plus what its scanner misses and the parsed
// syntax tree shows (`export * as ns from "./x"`). require() and
// `import x = require()` resolve in CommonJS mode, the rest in ESM mode.
function importsOf(rel, text, stats) {
  const found = new Map(); // spec + mode -> {spec, mode}
  const add = (spec, mode) => {
    const k = spec + '\0' + mode;
    if (!found.has(k)) found.set(k, { spec, mode });
  };
  const pre = new Set();
  for (const imp of ts.preProcessFile(text, true, true).importedFiles) {
    const before = text.slice(Math.max(0, imp.pos - 12), imp.pos);
    const cjs = /require\s*\(\s*["'`]?$/.test(before);
    add(imp.fileName, cjs ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext);
    pre.add(imp.fileName);
  }
  const kind = ts.ScriptKind[scriptKinds[path.extname(rel)] || 'TS'];
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, false, kind);
  const lit = (n) => n && (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) ? n.text : undefined;
  const visit = (n) => {
    let spec;
    let mode = ts.ModuleKind.ESNext;
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) {
      spec = lit(n.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) {
      spec = lit(n.moduleReference.expression);
      mode = ts.ModuleKind.CommonJS;
    } else if (ts.isCallExpression(n) && n.arguments.length >= 1) {
      if (n.expression.kind === ts.SyntaxKind.ImportKeyword) {
        spec = lit(n.arguments[0]);
      } else if (ts.isIdentifier(n.expression) && n.expression.text === 'require' && n.arguments.length === 1) {
        spec = lit(n.arguments[0]);
        mode = ts.ModuleKind.CommonJS;
      }
    }
    if (spec !== undefined && spec !== '') {
      if (!pre.has(spec)) stats.ast_only++;
      pre.add(spec);
      add(spec, mode);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { imports: [...found.values()], sf };
}

// analyse is importsOf plus what re-export chains need: the names the file
// uses from each module (named imports; ns.X for a namespace import) and
// what it exports (declared locally, re-exported by name, re-exported by
// export *).
function analyse(rel, text, stats) {
  const { imports, sf } = importsOf(rel, text, stats);
  const lit = (n) => n && ts.isStringLiteral(n) ? n.text : undefined;
  const uses = [];
  const namespaces = new Map(); // local name -> spec
  const exports = { local: new Set(), named: new Map(), stars: [] };
  const exported = (n) => (ts.getCombinedModifierFlags ? ts.getCombinedModifierFlags(n) & ts.ModifierFlags.Export : 0) !== 0;
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const spec = lit(st.moduleSpecifier);
      const c = st.importClause;
      if (!spec || !c || !c.namedBindings) continue;
      if (ts.isNamespaceImport(c.namedBindings)) {
        namespaces.set(c.namedBindings.name.text, spec);
      } else {
        for (const el of c.namedBindings.elements) {
          uses.push({ spec, mode: ts.ModuleKind.ESNext, name: (el.propertyName || el.name).text });
        }
      }
    } else if (ts.isExportDeclaration(st)) {
      const spec = lit(st.moduleSpecifier);
      if (!st.exportClause) {
        if (spec) exports.stars.push(spec);
      } else if (ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const orig = (el.propertyName || el.name).text;
          if (spec) {
            exports.named.set(el.name.text, { spec, orig });
            uses.push({ spec, mode: ts.ModuleKind.ESNext, name: orig });
          } else {
            exports.local.add(el.name.text);
          }
        }
      } else if (spec) {
        exports.named.set(st.exportClause.name.text, { spec, orig: '*' }); // export * as ns from
      }
    } else if (exported(st)) {
      if (st.name && ts.isIdentifier(st.name)) exports.local.add(st.name.text);
      if (ts.isVariableStatement(st)) {
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) exports.local.add(d.name.text);
      }
    } else if (ts.isExportAssignment(st)) {
      exports.local.add('default');
    }
  }
  if (namespaces.size) {
    const seen = new Set();
    const visit = (n) => {
      if (ts.isPropertyAccessExpression(n) && ts.isIdentifier(n.expression) && namespaces.has(n.expression.text)) {
        const key = n.expression.text + '.' + n.name.text;
        if (!seen.has(key)) {
          seen.add(key);
          uses.push({ spec: namespaces.get(n.expression.text), mode: ts.ModuleKind.ESNext, name: n.name.text });
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { imports, uses, exports, sf };
}

module.exports = { ts, resolver, analyse };
