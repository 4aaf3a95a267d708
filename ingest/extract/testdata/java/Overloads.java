package demo;

import java.lang.reflect.Type;
import java.util.List;

public final class Overloads {
  private final List<String> names;

  public Overloads() {
    this(List.of());
  }

  public Overloads(List<String> names) {
    this.names = names;
  }

  public Overloads add(String name) {
    return add(name, 1);
  }

  public Overloads add(String name, int times) {
    return add(name, times, new String[0]);
  }

  public Overloads add(@Deprecated final String name, int times, String... tags) {
    names.add(name);
    return this;
  }

  public Overloads add(Type type, int times) {
    return add(type.getTypeName());
  }

  // Same simple type names as the one above: told apart by qualifiers.
  public Overloads add(demo.other.Type type, int times) {
    return this;
  }

  public <T> Overloads addAll(List<? extends T> items, java.util.function.Function<T, String> f) {
    items.forEach(i -> add(f.apply(i)));
    return this;
  }

  void run() {
    add("a");
    add("b", 2);
    add("c", 3, "x", "y");
  }
}
