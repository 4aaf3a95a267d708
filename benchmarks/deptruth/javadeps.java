// javadeps.java — Java dependency truth for m1nd-deptruth, from javac itself.
//
//   java javadeps.java <root>          (OpenJDK 17+, no other dependency)
//
// Parses the tracked .java files of <root> (git ls-files) in one JavacTask
// and attributes them with an empty classpath: third-party types do not
// resolve, which is expected — what attributes is kept, what does not is
// counted (stats). Prints JSON on stdout:
//
//   files   the analysed files (module-info.java and files with syntax
//           errors are in skipped)
//   edges   file → files it depends on: every identifier, member select,
//           constructor, method reference or annotation whose element javac
//           binds to a type (or a member of a type) declared in another file
//           — types used, methods called, constructors invoked, imports,
//           inheritance
//   funcs   the methods and constructors declared, keyed like m1nd's entity
//           IDs: "path/F.java::Outer::Inner::name", a later overload of a
//           name in the same type "…::name(String,Object...)"
//   calls   [caller, callee] for each method invocation and constructor call
//           inside a method or constructor (lambdas and anonymous classes
//           count for the enclosing method): the element javac binds — the
//           overload it picked, the declaring type of an inherited method,
//           the interface's method for an interface call
import com.sun.source.tree.*;
import com.sun.source.util.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import javax.lang.model.element.*;
import javax.tools.*;

public class javadeps {
    static Path root;
    static Trees trees;
    static SourcePositions pos;
    // Every type declared in an analysed file → that file.
    static final Map<Element, String> typeFile = new HashMap<>();
    // Declared methods and constructors → m1nd-style ID.
    static final Map<Element, String> methodID = new HashMap<>();
    static final TreeMap<String, TreeSet<String>> edges = new TreeMap<>();
    static final TreeSet<String> funcs = new TreeSet<>();
    static final TreeSet<String> calls = new TreeSet<>();
    static final TreeMap<String, Long> stats = new TreeMap<>();

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java javadeps.java <repository root>");
            System.exit(2);
        }
        root = Paths.get(args[0]).toAbsolutePath().normalize();
        List<String> tracked = gitJavaFiles();
        TreeMap<String, String> skipped = new TreeMap<>();
        List<File> inputs = new ArrayList<>();
        for (String f : tracked) {
            if (f.endsWith("module-info.java")) {
                // A module descriptor cannot join a classpath compilation.
                skipped.put(f, "module-info.java is not compiled on the classpath");
            } else if (Files.isRegularFile(root.resolve(f))) {
                inputs.add(root.resolve(f).toFile());
            } else {
                skipped.put(f, "not in the work tree");
            }
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Map<String, Long> errs = new TreeMap<>();
        Set<String> syntax = new TreeSet<>();
        DiagnosticListener<JavaFileObject> diags = d -> {
            if (d.getKind() != Diagnostic.Kind.ERROR) return;
            errs.merge(d.getCode(), 1L, Long::sum);
            if (d.getSource() != null && d.getCode().startsWith("compiler.err.")
                    && !d.getCode().startsWith("compiler.err.cant.") && parsing) {
                syntax.add(rel(d.getSource().toUri()));
            }
        };
        StandardJavaFileManager fm = javac.getStandardFileManager(diags, null, StandardCharsets.UTF_8);
        // -XDshould-stop.ifError=ATTR: keep attributing every class after
        // the errors a missing classpath causes, and stop there (flow
        // analysis adds nothing here, and crashed on compile-testing's
        // erroneous code).
        List<String> opts = List.of("-proc:none", "-implicit:none", "-Xlint:none", "-nowarn",
                "-XDshould-stop.ifError=ATTR", "-XDshould-stop.ifNoError=ATTR", "-Xmaxerrs", "100000", "-encoding", "UTF-8");
        JavacTask task = (JavacTask) javac.getTask(null, fm, diags, opts, null, fm.getJavaFileObjectsFromFiles(inputs));
        trees = Trees.instance(task);
        pos = trees.getSourcePositions();
        parsing = true;
        List<CompilationUnitTree> units = new ArrayList<>();
        for (CompilationUnitTree u : task.parse()) units.add(u);
        parsing = false;
        try {
            task.analyze();
        } catch (RuntimeException | AssertionError x) {
            // javac can fail on code a missing classpath leaves broken
            // (compile-testing); what it attributed before stays in the
            // trees, the rest counts as unattributed.
            stats.put("javac_crashed", 1L);
            System.err.println("javadeps: javac stopped: " + x);
        }
        List<CompilationUnitTree> keep = new ArrayList<>();
        for (CompilationUnitTree u : units) {
            String f = rel(u.getSourceFile().toUri());
            if (syntax.contains(f)) skipped.put(f, "syntax error");
            else keep.add(u);
        }
        for (CompilationUnitTree u : keep) new Declarations(u).scan(u, null);
        for (CompilationUnitTree u : keep) new Uses(u).scan(u, null);
        stats.put("javac_errors", errs.values().stream().mapToLong(Long::longValue).sum());
        for (Map.Entry<String, Long> e : errs.entrySet()) stats.put("error " + e.getKey(), e.getValue());
        TreeSet<String> files = new TreeSet<>();
        for (CompilationUnitTree u : keep) files.add(rel(u.getSourceFile().toUri()));
        printJSON(files, skipped);
    }

    static boolean parsing;

    static List<String> gitJavaFiles() throws Exception {
        Process p = new ProcessBuilder("git", "-C", root.toString(), "ls-files", "-z", "--", "*.java")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) throw new IOException("git ls-files failed in " + root);
        List<String> files = new ArrayList<>();
        for (String f : out.split("\0")) if (!f.isEmpty()) files.add(f);
        Collections.sort(files);
        return files;
    }

    static String rel(java.net.URI uri) {
        return root.relativize(Paths.get(uri).normalize()).toString().replace(File.separatorChar, '/');
    }

    static void count(String k) { stats.merge(k, 1L, Long::sum); }

    // Declarations assigns each type its file and each method its ID, in
    // source order as m1nd's extractor does (the first method of a name
    // keeps the plain ID, a later overload gets its parameter types).
    static class Declarations extends TreePathScanner<Void, Void> {
        final CompilationUnitTree unit;
        final String file;
        final CharSequence src;
        final Deque<String> scope = new ArrayDeque<>();
        final Deque<Set<String>> taken = new ArrayDeque<>();

        Declarations(CompilationUnitTree u) throws IOException {
            unit = u;
            file = rel(u.getSourceFile().toUri());
            src = u.getSourceFile().getCharContent(true);
            scope.push(file);
        }

        @Override public Void visitClass(ClassTree t, Void v) {
            Element e = trees.getElement(getCurrentPath());
            if (e != null) typeFile.put(e, file);
            if (t.getSimpleName().length() == 0) {
                // Anonymous: its methods are no nodes; their calls belong to
                // the enclosing method.
                return super.visitClass(t, v);
            }
            scope.push(scope.peek() + "::" + t.getSimpleName());
            taken.push(new HashSet<>());
            super.visitClass(t, v);
            taken.pop();
            scope.pop();
            return null;
        }

        @Override public Void visitMethod(MethodTree t, Void v) {
            Element e = trees.getElement(getCurrentPath());
            boolean named = !taken.isEmpty() && !inAnonymous();
            if (e == null || !named || isGenerated(t)) return super.visitMethod(t, v);
            String name = e.getKind() == ElementKind.CONSTRUCTOR ? e.getEnclosingElement().getSimpleName().toString() : t.getName().toString();
            String id = scope.peek() + "::" + name;
            Set<String> used = taken.peek();
            if (used.contains(id)) {
                String s = id + "(" + sig(t, (ExecutableElement) e, false) + ")";
                if (used.contains(s)) s = id + "(" + sig(t, (ExecutableElement) e, true) + ")";
                id = s;
            }
            used.add(id);
            methodID.put(e, id);
            funcs.add(id);
            scope.push(id);
            taken.push(new HashSet<>()); // a local class's scope
            super.visitMethod(t, v);
            taken.pop();
            scope.pop();
            return null;
        }

        boolean inAnonymous() {
            TreePath p = getCurrentPath().getParentPath();
            return p != null && p.getLeaf() instanceof ClassTree c && c.getSimpleName().length() == 0;
        }

        // isGenerated: javac adds a default constructor with no position.
        boolean isGenerated(MethodTree t) { return pos.getEndPosition(unit, t) <= pos.getStartPosition(unit, t); }

        // sig is the parameter types as m1nd's sigType writes them: type
        // arguments and annotations dropped, qualifiers dropped unless qual.
        String sig(MethodTree t, ExecutableElement e, boolean qual) {
            List<String> out = new ArrayList<>();
            List<? extends VariableTree> ps = t.getParameters();
            for (int i = 0; i < ps.size(); i++) {
                Tree ty = ps.get(i).getType();
                boolean varargs = i == ps.size() - 1 && e.isVarArgs() && ty instanceof ArrayTypeTree;
                if (varargs) ty = ((ArrayTypeTree) ty).getType();
                String text = src.subSequence((int) pos.getStartPosition(unit, ty), (int) pos.getEndPosition(unit, ty)).toString();
                out.add(sigType(text, qual) + (varargs ? "..." : ""));
            }
            String s = String.join(",", out);
            return s.length() > 120 ? s.substring(0, 120) : s;
        }
    }

    // sigType mirrors ingest/extract/overload.go's sigTypeQ.
    static String sigType(String s, boolean qual) {
        StringBuilder b = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '(') depth++;
            else if (c == '>' || c == ')') depth = Math.max(depth - 1, 0);
            else if (depth > 0) continue;
            else if (c == '@') {
                while (i + 1 < s.length() && (Character.isJavaIdentifierPart(s.charAt(i + 1)) || s.charAt(i + 1) == '.')) i++;
            } else if (Character.isWhitespace(c)) b.append(' ');
            else b.append(c);
        }
        List<String> words = new ArrayList<>();
        for (String w : b.toString().trim().split("\\s+")) {
            if (w.isEmpty() || w.equals("final")) continue;
            boolean dots = w.endsWith("...");
            if (dots) w = w.substring(0, w.length() - 3);
            int j = w.lastIndexOf('.');
            if (!qual && j >= 0 && j + 1 < w.length() && Character.isJavaIdentifierPart(w.charAt(j + 1))) w = w.substring(j + 1);
            words.add(dots ? w + "..." : w);
        }
        return String.join(" ", words);
    }

    // Uses records file edges and call edges.
    static class Uses extends TreePathScanner<Void, Void> {
        final String file;

        Uses(CompilationUnitTree u) { file = rel(u.getSourceFile().toUri()); }

        void use(Tree t) {
            Element e = trees.getElement(getCurrentPath());
            if (e == null || e.asType() != null && e.asType().getKind() == javax.lang.model.type.TypeKind.ERROR) {
                count("unattributed");
                return;
            }
            String to = fileOf(e);
            if (to == null) {
                count("external_or_local");
                return;
            }
            count("attributed");
            if (!to.equals(file)) edges.computeIfAbsent(file, k -> new TreeSet<>()).add(to);
        }

        @Override public Void visitIdentifier(IdentifierTree t, Void v) { use(t); return super.visitIdentifier(t, v); }
        @Override public Void visitMemberSelect(MemberSelectTree t, Void v) { use(t); return super.visitMemberSelect(t, v); }
        @Override public Void visitMemberReference(MemberReferenceTree t, Void v) { use(t); return super.visitMemberReference(t, v); }

        @Override public Void visitNewClass(NewClassTree t, Void v) {
            use(t);
            call(trees.getElement(getCurrentPath()));
            return super.visitNewClass(t, v);
        }

        @Override public Void visitMethodInvocation(MethodInvocationTree t, Void v) {
            Tree sel = t.getMethodSelect();
            call(trees.getElement(new TreePath(getCurrentPath(), sel)));
            return super.visitMethodInvocation(t, v);
        }

        void call(Element callee) {
            count("calls_seen");
            String caller = enclosingMethod();
            if (caller == null) return; // a field initializer, a static block
            if (callee == null || !(callee instanceof ExecutableElement)) {
                count("calls_unattributed");
                return;
            }
            String to = methodID.get(callee);
            if (to == null) {
                count("calls_external"); // JDK, third-party, implicit constructor
                return;
            }
            count("calls_resolved");
            calls.add(caller + "\t" + to);
        }

        String enclosingMethod() {
            for (TreePath p = getCurrentPath(); p != null; p = p.getParentPath()) {
                if (p.getLeaf() instanceof MethodTree) {
                    String id = methodID.get(trees.getElement(p));
                    if (id != null) return id; // else a method of an anonymous class: go on out
                }
            }
            return null;
        }
    }

    // fileOf is the analysed file declaring e (for a member, its type's).
    static String fileOf(Element e) {
        for (Element x = e; x != null; x = x.getEnclosingElement()) {
            if (x.getKind() == ElementKind.PACKAGE || x.getKind() == ElementKind.MODULE) return null;
            String f = typeFile.get(x);
            if (f != null) return f;
        }
        return null;
    }

    static void printJSON(Set<String> files, Map<String, String> skipped) {
        StringBuilder b = new StringBuilder("{\n\"files\": ");
        strings(b, files);
        b.append(",\n\"skipped\": {");
        sep(b, skipped.entrySet(), (sb, e) -> { str(sb, e.getKey()); sb.append(": "); str(sb, e.getValue()); });
        b.append("},\n\"edges\": {");
        sep(b, edges.entrySet(), (sb, e) -> { str(sb, e.getKey()); sb.append(": "); strings(sb, e.getValue()); });
        b.append("},\n\"stats\": {");
        sep(b, stats.entrySet(), (sb, e) -> { str(sb, e.getKey()); sb.append(": ").append(e.getValue()); });
        b.append("},\n\"funcs\": ");
        strings(b, funcs);
        b.append(",\n\"calls\": [");
        sep(b, calls, (sb, c) -> { String[] p = c.split("\t"); sb.append('['); str(sb, p[0]); sb.append(", "); str(sb, p[1]); sb.append(']'); });
        b.append("]\n}\n");
        System.out.print(b);
    }

    static <T> void sep(StringBuilder b, Collection<T> xs, java.util.function.BiConsumer<StringBuilder, T> f) {
        boolean first = true;
        for (T x : xs) {
            if (!first) b.append(",");
            b.append("\n  ");
            first = false;
            f.accept(b, x);
        }
    }

    static void strings(StringBuilder b, Collection<String> xs) {
        b.append('[');
        sep(b, xs, javadeps::str);
        b.append(']');
    }

    static void str(StringBuilder b, String s) {
        b.append('"');
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        b.append('"');
    }
}
