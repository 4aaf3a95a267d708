package scan

import "testing"

func TestJavaScriptRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "errors", file: "src/a.js", pattern: ErrorHandling, src: `
function f() {
  try { g() } catch (e) {}
  try { g() } catch (e) { /* best effort */ }
  try { g() } catch (e) { log(e) }
  fetch(u).then(r => r.json());
  fetch(u).then(r => r.json()).catch(report);
  fetch(u).then(ok, fail);
  fetch(u).catch(() => {});
  return fetch(u).then(r => r.json());
}
`, want: []string{"2 js/empty-catch", "3 js/empty-catch", "5 js/unhandled-rejection", "8 js/unhandled-rejection"}},
		{name: "resources", file: "src/a.js", pattern: ResourceCleanup, src: `
function f(p) {
  const fd = fs.openSync(p, "r");
  setInterval(tick, 1000);
  const id = setInterval(tick, 1000);
}
function g(p) {
  const fd = fs.openSync(p, "r");
  try { use(fd) } finally { fs.closeSync(fd) }
}
`, want: []string{"2 js/unreleased-resource", "3 js/unreleased-resource"}},
		{name: "concurrency", file: "src/a.js", pattern: Concurrency, src: `
items.forEach(async (i) => { await save(i) });
items.forEach((i) => save(i));
const p = new Promise(async (resolve) => { resolve(await g()) });
const q = new Promise((resolve) => resolve(1));
`, want: []string{"1 js/async-callback", "3 js/async-callback"}},
		{name: "state", file: "src/a.js", pattern: StateMutation, src: `
let count = 0;
const limit = 3;
var cache = null;
function inc() { count++; count += 1; }
function shadow() { let count = 0; count++; }
function load() { cache = compute(); }
`, want: []string{"4 js/module-state", "6 js/module-state"}},
		{name: "routes", file: "src/routes.js", pattern: AuthBoundary, src: `
router.get("/users", requireAuth, listUsers);
router.delete("/users/:id", deleteUser);
router.get("/health", health);
app.post("/orders", (req, res) => create(req.body));
`, want: []string{"2 js/route-without-auth", "4 js/route-without-auth"}},
		{name: "router-wide auth", file: "src/routes.js", pattern: AuthBoundary, src: `
router.use(authenticate);
router.get("/users", listUsers);
`},
		{name: "exports", file: "src/lib.js", pattern: TestCoverage, src: `
export function a() {}
/** Documented. */
export const b = () => 1;
function c() {}
export class D {}
`, want: []string{"1 js/untested-export", "3 js/untested-export", "5 js/untested-export"}},
		{name: "docs", file: "src/lib.js", pattern: APISurface, src: `
export function a() {}
/** Documented. */
export const b = () => 1;
`, want: []string{"1 js/undocumented-export"}},
		{name: "di", file: "src/svc.js", pattern: DependencyInjection, src: `
class Billing {
  constructor(db) { this.db = db; this.client = new PaymentClient(); }
  charge() { return process.env.KEY; }
  load() { const x = require("x"); }
}
function createClient() { return new PaymentClient(); }
const top = new PaymentClient();
`, want: []string{"2 js/hardwired-dependency", "3 js/hardwired-dependency", "4 js/hardwired-dependency"}},
	})
}

func TestTypeScriptRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "any", file: "src/a.ts", pattern: APISurface, src: `
/** Documented. */
export function parse(input: any): Result { return input }
/** Documented. */
export function typed(input: string): number { return 1 }
/** Documented. */
export class S { m(x: any) {} }
`, want: []string{"2 ts/exported-any"}},
		{name: "tsx errors", file: "src/a.tsx", pattern: ErrorHandling, src: `
export function C() {
  try { g() } catch {}
  return <div onClick={() => p.then(x => x)} />;
}
`, want: []string{"2 js/empty-catch"}},
		{name: "ts state", file: "src/a.ts", pattern: StateMutation, src: `
let count: number = 0;
export function inc(): void { count++; }
`, want: []string{"2 js/module-state"}},
	})
}
