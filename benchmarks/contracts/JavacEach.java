import java.io.StringWriter;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles each file named on stdin on its own against a class path, in one JVM
 * (a javac process per removal costs seconds of start-up each). Prints one line
 * per file: 1 when javac says a class no longer implements an abstract method, 2 when it
 * refuses the file for something else only (the cut left broken syntax), 0 when it compiles.
 * Usage: java JavacEach.java CLASSPATH OUTDIR < files
 */
public class JavacEach {
  public static void main(String[] args) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    var in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
    for (String file; (file = in.readLine()) != null; ) {
      StringWriter err = new StringWriter();
      var opts = List.of("-nowarn", "-Xmaxerrs", "100000", "-implicit:none", "-proc:none",
          "-d", args[1], "-cp", args[0]);
      var units = javac.getStandardFileManager(null, null, null).getJavaFileObjects(file);
      boolean ok = javac.getTask(err, null, null, opts, null, units).call();
      System.out.println(err.toString().contains("does not override abstract method") ? 1 : ok ? 0 : 2);
      System.out.flush();
    }
  }
}
