package demo;

// CodeWriter's emit overloads (square/javapoet): two of them take two
// arguments and three take one; the arguments' kinds tell them apart.
public final class EmitOverloads {
  private Block field;

  public EmitOverloads emit(String s) { return this; }
  public EmitOverloads emit(String format, Object... args) { return this; }
  public EmitOverloads emit(Block block) { return this; }
  public EmitOverloads emit(Block block, boolean ensureTrailingNewline) { return this; }

  void run(Block b, String name) {
    emit("@$T", name);
    emit("x");
    emit(b);
    emit(b, true);
    emit(new Block());
    emit(name);
    emit(field);
    emit("a" + name, 1, 2);
    Runnable r = () -> emit("$L", b);
  }
}

class Block {}
