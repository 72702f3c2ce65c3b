// Ground truth for scripts/bench-nl.ts from javac's own parser: every class, field, method and
// constructor of the .java files under a folder, with its name line, its span (Javadoc included)
// and its Javadoc's first sentence as javac reads it (one JSON object a line).
// Usage: java JavaDocs.java ROOT
import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePathScanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaDocs {
  static String quote(String s) {
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
    JavacTask task = (JavacTask) javac.getTask(null, fm, d -> {}, List.of("-proc:none"), null, fm.getJavaFileObjectsFromPaths(paths));
    DocTrees docs = DocTrees.instance(task);
    SourcePositions pos = docs.getSourcePositions();
    for (CompilationUnitTree unit : task.parse()) {
      String rel = root.relativize(Path.of(unit.getSourceFile().toUri())).toString();
      String text = unit.getSourceFile().getCharContent(true).toString();
      LineMap lines = unit.getLineMap();
      new TreePathScanner<Void, String>() {
        void declared(String name, String owner, String kind, Tree t) {
          long start = pos.getStartPosition(unit, t);
          int at = text.indexOf(name, (int) start);
          System.out.println("{\"file\":" + quote(rel) + ",\"name\":" + quote(name) + ",\"container\":" + quote(owner == null ? "" : owner) + ",\"kind\":\"" + kind + "\",\"start\":" + lines.getLineNumber(start) + ",\"line\":" + lines.getLineNumber(at < 0 ? start : at) + ",\"end\":" + lines.getLineNumber(pos.getEndPosition(unit, t)) + ",\"docStart\":" + lines.getLineNumber(start) + ",\"doc\":\"\"}");
        }

        @Override
        public Void visitClass(ClassTree c, String owner) {
          // Classes, interfaces, enums, records and their fields are declarations too (not asked about).
          declared(c.getSimpleName().toString(), owner, "class", c);
          for (Tree member : c.getMembers()) if (member instanceof VariableTree v) declared(v.getName().toString(), c.getSimpleName().toString(), "field", v);
          return super.visitClass(c, c.getSimpleName().toString());
        }

        @Override
        public Void visitMethod(MethodTree m, String owner) {
          long start = pos.getStartPosition(unit, m);
          long end = pos.getEndPosition(unit, m);
          boolean constructor = m.getName().contentEquals("<init>");
          String name = constructor ? owner : m.getName().toString();
          int at = text.indexOf(name + "(", (int) start);
          if (at < 0) at = (int) start;
          DocCommentTree doc = docs.getDocCommentTree(getCurrentPath());
          String first = doc == null ? "" : doc.getFirstSentence().stream().map(Object::toString).collect(Collectors.joining(""));
          long docStart = start;
          if (doc != null) {
            int open = text.lastIndexOf("/**", (int) start);
            if (open >= 0) docStart = open;
          }
          System.out.println("{\"file\":" + quote(rel) + ",\"name\":" + quote(name) + ",\"container\":" + quote(owner == null ? "" : owner) + ",\"kind\":\"" + (constructor ? "constructor" : "method") + "\",\"start\":" + lines.getLineNumber(start) + ",\"line\":" + lines.getLineNumber(at) + ",\"end\":" + lines.getLineNumber(end) + ",\"docStart\":" + lines.getLineNumber(docStart) + ",\"doc\":" + quote(first) + "}");
          return super.visitMethod(m, owner);
        }
      }.scan(unit, null);
    }
  }
}
