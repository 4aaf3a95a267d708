package scan

import "testing"

func TestJavaRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "errors", file: "src/main/java/A.java", pattern: ErrorHandling, src: `
public class A {
  void f() {
    try { g(); } catch (IOException e) {}
    try { g(); } catch (Exception e) { e.printStackTrace(); }
    try { g(); } catch (Exception e) { throw new RuntimeException(e); }
  }
}
`, want: []string{"3 java/empty-catch", "4 java/empty-catch"}},
		{name: "resources", file: "src/main/java/A.java", pattern: ResourceCleanup, src: `
public class A {
  void leak() throws IOException {
    FileInputStream in = new FileInputStream("x");
    in.read();
  }
  void wrapped() throws IOException {
    FileInputStream in = new FileInputStream("x");
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in))) { r.readLine(); }
  }
  void twr() throws IOException {
    try (FileInputStream in = new FileInputStream("x")) { in.read(); }
  }
}
`, want: []string{"3 java/unclosed-resource"}},
		{name: "state and concurrency", file: "src/main/java/A.java", src: `
public class A {
  private static int count = 0;
  private static final int LIMIT = 3;
  private static final SimpleDateFormat FMT = new SimpleDateFormat("yyyy");
}
`, opt: Options{Patterns: []string{StateMutation, Concurrency}}, want: []string{"2 java/static-mutable", "4 java/shared-formatter"}},
		{name: "spring routes", file: "src/main/java/Api.java", pattern: AuthBoundary, src: `
@RestController
public class Api {
  @PreAuthorize("hasRole('ADMIN')")
  @DeleteMapping("/users/{id}")
  public void delete(long id) {}

  @PostMapping("/orders")
  public void order() {}

  @GetMapping("/health")
  public String health() { return "ok"; }
}
`, want: []string{"7 java/route-without-auth"}},
		{name: "di and tests", file: "src/main/java/Svc.java", src: `
public class Svc {
  @Autowired private Repo repo;
  public int total() { OrderService s = new OrderService(); return s.sum(); }
  public int getX() { return x; }
}
`, opt: Options{Patterns: []string{DependencyInjection, TestCoverage}}, want: []string{"2 java/hardwired-dependency", "3 java/untested-public", "3 java/hardwired-dependency"}},
	})
}

func TestRustRules(t *testing.T) {
	runCases(t, []ruleCase{
		{name: "rust", file: "src/lib.rs", src: `
/// Documented.
pub fn parse(s: &str) -> u32 { s.parse().unwrap() }
pub fn bare() { let _ = std::fs::remove_file("x"); std::mem::forget(v); }
static mut COUNTER: u32 = 0;
fn private() { x.expect("invariant"); }
#[cfg(test)]
mod tests {
    #[test]
    fn t() { super::parse("1").unwrap(); }
}
`, want: []string{"2 rust/untested-pub", "2 rust/unwrap", "3 rust/undocumented-pub", "3 rust/untested-pub", "3 rust/discarded-result", "3 rust/leak", "4 rust/static-mut", "5 rust/unwrap"}},
	})
}
