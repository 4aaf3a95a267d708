package scan

import "testing"

func TestPythonErrorHandling(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "excepts", file: "app/x.py", pattern: ErrorHandling, src: `
def f():
    try:
        g()
    except:
        pass
    try:
        g()
    except:
        cleanup()
        raise
    try:
        g()
    except:
        log(1)
    try:
        g()
    except Exception:
        pass
    try:
        g()
    except (ValueError, Exception) as e:
        state.x = 1
        state.y = 2
    try:
        g()
    except Exception as e:
        logger.warning("failed: %s", e)
    try:
        g()
    except KeyError:
        return None
    try:
        import fast
    except ImportError:
        fast = None
`, want: []string{"4 py/bare-except", "8 py/bare-except", "13 py/bare-except", "17 py/swallowed-exception", "21 py/swallowed-exception", "30 py/swallowed-exception"}},
	})
}

func TestPythonResourceCleanup(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "files", file: "x.py", pattern: ResourceCleanup, src: `
def leak(p):
    f = open(p)
    return f.read()

def good(p):
    with open(p) as f:
        return f.read()

def late(p):
    f = open(p)
    data = f.read()
    f.close()
    return data

def safe(p):
    f = open(p)
    try:
        return f.read()
    finally:
        f.close()

def owner(p):
    f = open(p)
    return f

def chained(p):
    return open(p).read()

def parsed(p):
    f = open(p)
    return json.load(f)
`, want: []string{"2 py/unclosed-resource", "10 py/unclosed-resource", "27 py/unclosed-resource", "30 py/unclosed-resource"}},
		{name: "locks", file: "x.py", pattern: ResourceCleanup, src: `
def a():
    lock.acquire()
    work()
    lock.release()

def b():
    lock.acquire()
    try:
        work()
    finally:
        lock.release()

def c():
    with lock:
        work()

def d():
    if lock.acquire(False):
        pass
`, want: []string{"2 py/lock-not-released"}},
	})
}

func TestPythonStateMutation(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "state", file: "x.py", pattern: StateMutation, src: `
_registry = {}
_items = []
LIMIT = 10
_cache = None

def register(name, fn):
    _registry[name] = fn

def add(x, acc=[]):
    acc.append(x)
    return acc

def fine(x, opts={}):
    return opts.get(x)

def setlimit(n):
    global LIMIT
    LIMIT = n

def cache():
    global _cache
    if _cache is None:
        _cache = load()
    return _cache

def local():
    _items = []
    _items.append(1)

def guarded(x):
    with _lock:
        _items.append(x)
`, want: []string{"7 py/module-state-mutated", "9 py/mutable-default", "13 py/mutable-default", "18 py/global-rebound", "23 py/global-rebound", "32 py/module-state-mutated"}},
	})
}

func TestPythonConcurrency(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "async", file: "x.py", pattern: Concurrency, src: `
import asyncio, time

async def handler():
    asyncio.create_task(work())
    task = asyncio.create_task(work())
    time.sleep(1)
    await asyncio.sleep(1)
    async with asyncio.TaskGroup() as tg:
        tg.create_task(work())

def sync():
    time.sleep(1)
`, want: []string{"4 py/task-dropped", "6 py/blocking-in-async"}},
	})
}

func TestPythonAPIAndTests(t *testing.T) {
	src := `
__all__ = ["public", "Service"]

def public(x):
    return x

def also_public_name(x):
    """Not in __all__."""

def _private():
    pass

class Service:
    """A service."""

    def run(self):
        pass

    def _helper(self):
        pass
`
	runCases(t, []ruleCase{
		{name: "api", file: "pkg/mod.py", pattern: APISurface, src: src, want: []string{"3 py/undocumented-public"}},
		{name: "tests", file: "pkg/mod.py", pattern: TestCoverage, src: src, want: []string{"3 py/untested-public", "15 py/untested-public"}},
		{name: "test files are skipped", file: "tests/test_mod.py", pattern: TestCoverage, src: src},
	})
}

func TestPythonAuthBoundary(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "flask", file: "views.py", pattern: AuthBoundary, src: `
@app.route("/admin", methods=["POST"])
@login_required
def admin():
    pass

@app.route("/orders/<id>", methods=["DELETE"])
def delete_order(id):
    pass

@app.route("/login")
def login():
    pass

@router.get("/me")
def me(user=Depends(get_current_user)):
    pass

@router.get("/items")
def items():
    pass
`, want: []string{"6 py/route-without-auth", "18 py/route-without-auth"}},
	})
}

func TestPythonDependencyInjection(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "hardwired", file: "svc.py", pattern: DependencyInjection, src: `
import os, requests

class Billing:
    def __init__(self, db):
        self.db = db
        self.client = PaymentClient()
        self.cache = {}

    def charge(self):
        return requests.post(URL)

def make_client():
    return requests.Session()

def config():
    return os.environ["HOME"]

URL = os.environ.get("URL")
`, want: []string{"6 py/hardwired-dependency", "10 py/hardwired-dependency", "16 py/hardwired-dependency"}},
	})
}
