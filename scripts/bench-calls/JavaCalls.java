// Ground truth for scripts/bench-calls.ts from javac's own attribution: every declaration and every
// method invocation of the .java files under a folder, each invocation with the method javac bound it
// to (one JSON object a line). The folder holds java.base sources, compiled as a patch of java.base.
// Usage: java JavaCalls.java ROOT   (ROOT/java.base/java/util/*.java)
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaCalls {
  static String quote(String s) {
    if (s == null) return "null";
    StringBuilder b = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    List<Path> paths;
    try (var walk = Files.walk(root)) {
      paths = walk.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StandardJavaFileManager fm = javac.getStandardFileManager(null, null, null);
    List<String> options = List.of("-proc:none", "--patch-module", "java.base=" + root.resolve("java.base"), "-XDshould-stop.at=FLOW", "-Xmaxerrs", "0");
    JavacTask task = (JavacTask) javac.getTask(null, fm, d -> {}, options, null, fm.getJavaFileObjectsFromPaths(paths));
    Trees trees = Trees.instance(task);
    SourcePositions pos = trees.getSourcePositions();
    List<CompilationUnitTree> units = new ArrayList<>();
    for (CompilationUnitTree u : task.parse()) units.add(u);
    task.analyze();
    for (CompilationUnitTree unit : units) {
      String rel = root.relativize(Path.of(unit.getSourceFile().toUri())).toString();
      String text = unit.getSourceFile().getCharContent(true).toString();
      LineMap lines = unit.getLineMap();
      new TreePathScanner<Void, String[]>() {
        void declared(String name, String owner, String kind, Tree t, long nameAt) {
          System.out.println("{\"t\":\"def\",\"file\":" + quote(rel) + ",\"name\":" + quote(name) + ",\"container\":" + quote(owner == null ? "" : owner) + ",\"kind\":\"" + kind + "\",\"line\":" + lines.getLineNumber(nameAt) + ",\"end\":" + lines.getLineNumber(pos.getEndPosition(unit, t)) + "}");
        }

        long nameAt(String name, Tree t) {
          long start = pos.getStartPosition(unit, t);
          int at = text.indexOf(name, (int) start);
          return at < 0 ? start : at;
        }

        @Override
        public Void visitClass(ClassTree c, String[] in) {
          String name = c.getSimpleName().toString();
          if (!name.isEmpty()) declared(name, in == null ? null : in[1], "class", c, nameAt(name, c));
          for (Tree member : c.getMembers()) if (member instanceof VariableTree v) declared(v.getName().toString(), name, "field", v, nameAt(v.getName().toString(), v));
          // Anonymous classes keep the enclosing method as the caller of what they call.
          return super.visitClass(c, name.isEmpty() ? in : new String[] {null, name});
        }

        @Override
        public Void visitMethod(MethodTree m, String[] in) {
          boolean constructor = m.getName().contentEquals("<init>");
          String name = constructor ? in[1] : m.getName().toString();
          long start = pos.getStartPosition(unit, m);
          int at = text.indexOf(name + "(", (int) start);
          declared(name, in[1], constructor ? "constructor" : "method", m, at < 0 ? start : at);
          return super.visitMethod(m, new String[] {name, in[1]});
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, String[] in) {
          Tree select = call.getMethodSelect();
          String name = select instanceof MemberSelectTree s ? s.getIdentifier().toString() : select instanceof IdentifierTree i ? i.getName().toString() : null;
          if (name != null && !name.equals("this") && !name.equals("super")) {
            long end = pos.getEndPosition(unit, select);
            long at = end - name.length();
            Element el = trees.getElement(getCurrentPath());
            String target = "null";
            boolean resolved = el instanceof ExecutableElement;
            if (resolved) {
              TreePath decl = trees.getPath(el);
              Element owner = el.getEnclosingElement();
              if (decl != null && owner instanceof TypeElement type) {
                String file = root.relativize(Path.of(decl.getCompilationUnit().getSourceFile().toUri())).toString();
                long dAt = pos.getStartPosition(decl.getCompilationUnit(), decl.getLeaf());
                String dText;
                try { dText = decl.getCompilationUnit().getSourceFile().getCharContent(true).toString(); } catch (Exception e) { dText = ""; }
                int nAt = dText.indexOf(name + "(", (int) dAt);
                target = "{\"file\":" + quote(file) + ",\"line\":" + decl.getCompilationUnit().getLineMap().getLineNumber(nAt < 0 ? dAt : nAt) + ",\"name\":" + quote(name) + ",\"container\":" + quote(type.getSimpleName().toString()) + "}";
              }
            }
            String caller = in == null || in[0] == null ? "null" : "{\"name\":" + quote(in[0]) + ",\"container\":" + quote(in[1]) + "}";
            System.out.println("{\"t\":\"call\",\"file\":" + quote(rel) + ",\"line\":" + lines.getLineNumber(at) + ",\"name\":" + quote(name) + ",\"resolved\":" + resolved + ",\"target\":" + target + ",\"caller\":" + caller + "}");
          }
          return super.visitMethodInvocation(call, in);
        }
      }.scan(unit, null);
    }
  }
}
