package demo;

import java.util.List;

// Overloads whose parameters differ only by class (commons-cli's
// getOptionValue(Option) and getOptionValue(OptionGroup)): the declared
// types of the arguments tell them apart. One call per method, so that
// no two calls make one edge.
public class ClassOverloads {
  private Option option;
  private final String label = "x";

  public String get(Option o) { return ""; }
  public String get(Group g) { return ""; }
  public String get(String name) { return name; }

  void param(Option o) { get(o); }
  void subclass(Special sp) { get(sp); }
  void field() { get(option); }
  void thisField() { get(this.option); }
  void stringField() { get(label); }
  void created() { get(new Group()); }
  void cast() { get((Group) null); }
  void local() { Group local = new Group(); get(local); }
  void inferred() { var v = new Option(); get(v); }
  void libraryBase(Outside out) { get(out); }
  void lambda(List<Option> all) { all.forEach(option -> get(option)); }
}

class Option {}

class Special extends Option {}

class Group {
  Group() {}
  Group(Option o) {}
  Group(Group g) {}
  Group(Special s, int n) { this(s); }
}

class Outside extends java.util.AbstractList<Option> {
  public Option get(int i) { return null; }
  public int size() { return 0; }
}

class SubGroup extends Group {
  SubGroup(Group g) { super(g); }
}

// A library's interface (java.lang.Runnable) named like a nested class
// declared here: a value of a library class may still be one. Calls'
// results typed by their callees' declared result types.
class Tasks {
  void take(Runnable r) {}
  void take(Group g) {}
  void libraryInterface(Task task) { take(task); }
  Group group() { return null; }
  void ownResult() { take(group()); }
  void typedResult(Maker m) { take(m.make()); }
  void staticResult() { take(Maker.task()); }
}

class Maker {
  Group make() { return null; }
  static Task task() { return null; }
}

class Task extends java.util.TimerTask {
  public void run() {}
}

class Holder {
  class Runnable {}
}
