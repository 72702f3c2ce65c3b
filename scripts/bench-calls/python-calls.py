"""Ground truth for scripts/bench-calls.ts from Python's own parser: every declaration and every call
of the .py files under a folder (one JSON object a line). Python has no static types, so a call is
resolved only where its target is certain from the source alone: a plain name bound in the module or
imported (from ... import, relative imports), `module.f` through an imported module, `self.m` /
`cls.m` / `super().m` inside a class (looked up through the class's bases in the corpus), `C.m` on a
class, and `x.m` where x is annotated `x: C` or every assignment in the function is `x = C(...)`,
and `self.a.m` where every `self.a = ...` in the class is `C(...)`. Any other call is printed with
"resolved": false (unknown), never guessed.
Usage: python3 python-calls.py ROOT"""
import ast
import json
import os
import sys

root = sys.argv[1]
modules = {}  # module name -> {"file", "tree", "names": {name: ("class"|"function"|"module"|"symbol", ...)}}


def module_name(rel):
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


for dirpath, dirnames, filenames in os.walk(root):
    dirnames.sort()
    for f in sorted(filenames):
        if f.endswith(".py"):
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            try:
                tree = ast.parse(open(path, encoding="utf-8").read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            modules[module_name(rel)] = {"file": rel, "tree": tree, "package": module_name(rel) if f == "__init__.py" else module_name(rel).rpartition(".")[0]}

classes = {}  # (module, name) -> {"bases": [expr], "methods": {name: line}, "attrs": {attr: [expr]}, "module"}


def out(row):
    print(json.dumps(row))


# Pass 1: module-level bindings, classes and imports.
for mod, m in modules.items():
    names = {}
    for node in m["tree"].body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = ("class", (mod, node.name))
            methods, attrs = {}, {}
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods[item.name] = item.lineno
                    for sub in ast.walk(item):
                        if isinstance(sub, ast.Assign):
                            for t in sub.targets:
                                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                                    attrs.setdefault(t.attr, []).append(sub.value)
                        elif isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Attribute) and isinstance(sub.target.value, ast.Name) and sub.target.value.id == "self":
                            attrs.setdefault(sub.target.attr, []).append(("annotation", sub.annotation))
            classes[(mod, node.name)] = {"bases": node.bases, "methods": methods, "attrs": attrs, "module": mod, "line": node.lineno}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names[node.name] = ("function", (mod, node.name, node.lineno))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    names[a.asname] = ("module", a.name)
                else:
                    names[a.name.split(".")[0]] = ("module", a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = m["package"].split(".") if m["package"] else []
                pkg = pkg[: len(pkg) - (node.level - 1)] if node.level > 1 else pkg
                base = ".".join(pkg + ([node.module] if node.module else []))
            for a in node.names:
                if a.name != "*":
                    names[a.asname or a.name] = ("symbol", base, a.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Name):
                    names[t.id] = ("value",)
    m["names"] = names


def lookup(mod, name, depth=0):
    """What a module-level name of `mod` is: ("class", key) | ("function", (mod, name, line)) | ("module", name) | None (unknown)."""
    if depth > 5 or mod not in modules:
        return None
    b = modules[mod]["names"].get(name)
    if b is None:
        return None
    if b[0] == "symbol":
        if f"{b[1]}.{b[2]}" in modules:
            return ("module", f"{b[1]}.{b[2]}")
        return lookup(b[1], b[2], depth + 1)
    if b[0] == "value":
        return None
    return b


def resolve_expr(mod, expr):
    """A class, function or module an expression names (Name or dotted Attribute), or None."""
    if isinstance(expr, ast.Name):
        return lookup(mod, expr.id)
    if isinstance(expr, ast.Attribute):
        inner = resolve_expr(mod, expr.value)
        if inner and inner[0] == "module":
            sub = f"{inner[1]}.{expr.attr}"
            if sub in modules:
                return ("module", sub)
            return lookup(inner[1], expr.attr)
    return None


def module_assignments(m):
    """Every assignment of a name in a module's own code (not in its functions), and the names functions declare global."""
    if "assigned" in m:
        return m["assigned"], m["globals"]
    assigned, globals_ = {}, set()
    for stmt in m["tree"].body:
        for n in walk_top(stmt):
            if isinstance(n, ast.Assign):
                for t in n.targets:
                    for x in ast.walk(t):
                        if isinstance(x, ast.Name):
                            assigned.setdefault(x.id, []).append(n.value if t is x else None)
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                assigned.setdefault(n.target.id, []).append(("annotation", n.annotation))
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.NamedExpr, ast.AugAssign, ast.Import, ast.ImportFrom)):
                for x in ast.walk(n.target if isinstance(n, (ast.For, ast.AsyncFor, ast.NamedExpr, ast.AugAssign)) else n) if not isinstance(n, (ast.Import, ast.ImportFrom)) else []:
                    if isinstance(x, ast.Name):
                        assigned.setdefault(x.id, []).append(None)
    for n in ast.walk(m["tree"]):
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            globals_.update(n.names)
    m["assigned"], m["globals"] = assigned, globals_
    return assigned, globals_


def module_instance(mod, name):
    """The class of a module-level variable every assignment of which (in the module's own code) is `C(...)` or `x: C`, no function declaring it global."""
    m = modules[mod]
    assigned, globals_ = module_assignments(m)
    values = assigned.get(name)
    if not values or name in globals_ or m["names"].get(name, ("value",))[0] != "value":
        return None
    kinds = {class_of_value(mod, v) for v in values}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


def import_binding(mod, node, alias):
    """What an import statement binds a name to, as pass 1 records it: ("module", name) or ("symbol", module, name)."""
    if isinstance(node, ast.Import):
        return ("module", alias.asname and alias.name or alias.name.split(".")[0])
    if alias.name == "*":
        return None
    base = node.module or ""
    if node.level:
        pkg = modules[mod]["package"].split(".") if modules[mod]["package"] else []
        pkg = pkg[: len(pkg) - (node.level - 1)] if node.level > 1 else pkg
        base = ".".join(pkg + ([node.module] if node.module else []))
    return ("symbol", base, alias.name)


def resolve_binding(b):
    if b[0] == "module":
        return b
    if f"{b[1]}.{b[2]}" in modules:
        return ("module", f"{b[1]}.{b[2]}")
    return lookup(b[1], b[2])


def resolve_in_scope(scope, expr):
    """resolve_expr, with the names the function imports itself (any other local is unknown)."""
    if isinstance(expr, ast.Name):
        if expr.id in scope.imported:
            return resolve_binding(scope.imported[expr.id])
        if expr.id in scope.locals:
            return None
        return lookup(scope.mod, expr.id)
    if isinstance(expr, ast.Attribute):
        inner = resolve_in_scope(scope, expr.value)
        if inner and inner[0] == "module":
            sub = f"{inner[1]}.{expr.attr}"
            if sub in modules:
                return ("module", sub)
            return lookup(inner[1], expr.attr)
    return None


def method_of(key, name, seen=None):
    """(owner key, line) of `name` looked up through the class and its bases; "external" when a base is unknown."""
    seen = seen or set()
    if key in seen:
        return None
    seen.add(key)
    c = classes[key]
    if name in c["methods"]:
        return (key, c["methods"][name])
    unknown = False
    for b in c["bases"]:
        r = resolve_expr(c["module"], b)
        if r and r[0] == "class":
            found = method_of(r[1], name, seen)
            if found == "external":
                unknown = True
            elif found:
                return found
        elif not (isinstance(b, ast.Name) and b.id == "object"):
            unknown = True
    return "external" if unknown else None


def class_of_value(mod, value):
    """The class a value is obviously of: C(...) or an annotation naming C."""
    if isinstance(value, tuple) and value[0] == "annotation":
        ann = value[1]
        if isinstance(ann, ast.Constant) and isinstance(ann.value, str):
            try:
                ann = ast.parse(ann.value, mode="eval").body
            except SyntaxError:
                return None
        r = resolve_expr(mod, ann)
        return r[1] if r and r[0] == "class" else None
    if isinstance(value, ast.Call):
        r = resolve_expr(mod, value.func)
        return r[1] if r and r[0] == "class" else None
    return None


def attr_class(key, attr):
    values = classes[key]["attrs"].get(attr)
    if not values:
        return None
    kinds = {class_of_value(classes[key]["module"], v) for v in values}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


class Scope:
    def __init__(self, mod, cls, func, parent=None):
        self.mod, self.cls, self.func = mod, cls, func
        self.local_types, self.locals, self.local_defs = {}, set(), {}
        # Names a function binds by importing (`from email.parser import Parser` in its body): certain as at module level.
        self.imports, self.imported = {}, {}
        self.self_name = None
        if func is None:
            return
        args = func.args.posonlyargs + func.args.args + func.args.kwonlyargs + [a for a in (func.args.vararg, func.args.kwarg) if a]
        for a in args:
            self.locals.add(a.arg)
            if a.annotation is not None:
                self.local_types[a.arg] = class_of_value(mod, ("annotation", a.annotation))
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in func.decorator_list)
        if cls and not static and (func.args.posonlyargs + func.args.args):
            self.self_name = (func.args.posonlyargs + func.args.args)[0].arg
            self.local_types[self.self_name] = cls
        else:
            self.self_name = None
        assigned = {}
        for sub in walk_own(func):
            if isinstance(sub, ast.Assign):
                for t in sub.targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            assigned.setdefault(n.id, []).append(sub.value if t is n else None)
            elif isinstance(sub, ast.AnnAssign) and isinstance(sub.target, ast.Name):
                assigned.setdefault(sub.target.id, []).append(("annotation", sub.annotation))
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not func:
                self.local_defs[sub.name] = sub
            else:
                # Other bindings (loop targets, with ... as, except ... as, :=, imports, global): type unknown.
                bound = []
                if isinstance(sub, (ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr, ast.AugAssign)):
                    bound = [sub.target]
                elif isinstance(sub, (ast.With, ast.AsyncWith)):
                    bound = [i.optional_vars for i in sub.items if i.optional_vars is not None]
                elif isinstance(sub, ast.ExceptHandler) and sub.name:
                    assigned.setdefault(sub.name, []).append(None)
                elif isinstance(sub, (ast.Import, ast.ImportFrom)):
                    for a in sub.names:
                        local = (a.asname or a.name).split(".")[0]
                        assigned.setdefault(local, []).append(None)
                        self.imports.setdefault(local, []).append(import_binding(mod, sub, a))
                elif isinstance(sub, (ast.Global, ast.Nonlocal)):
                    for a in sub.names:
                        assigned.setdefault(a, []).append(None)
                for t in bound:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            assigned.setdefault(n.id, []).append(None)
        # A name bound only by imports of one and the same thing resolves like a module-level import.
        for name, bindings in self.imports.items():
            if len(assigned.get(name, [])) == len(bindings) and len(set(bindings)) == 1 and bindings[0] is not None:
                self.imported[name] = bindings[0]
        for name, values in assigned.items():
            self.locals.add(name)
            if self.self_name == name or name in self.local_types and values == []:
                continue
            kinds = {class_of_value(mod, v) for v in values}
            prior = self.local_types.get(name)
            if name in self.local_types:
                kinds.add(prior)
            self.local_types[name] = kinds.pop() if len(kinds) == 1 else None
        # A nested function sees the names of the functions around it that it does not bind itself (closures are lexical).
        if parent is not None and parent.func is not None:
            for name in parent.locals - self.locals:
                self.locals.add(name)
                if name in parent.local_types:
                    self.local_types[name] = parent.local_types[name]
                if name in parent.imported:
                    self.imported[name] = parent.imported[name]


def walk_own(func):
    """The nodes of a function's body, not descending into nested functions or classes (they are their own scopes)."""
    stack = list(func.body)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(n))


def target_of_binding(b, name):
    if b is None:
        return None
    if b[0] == "function":
        mod, n, line = b[1]
        return {"file": modules[mod]["file"], "line": line, "name": n, "container": ""}
    return "none"  # a class (constructor call) or a module: not a function


def resolve_call(scope, call):
    """(name, line, resolved, target) of a call."""
    f = call.func
    if isinstance(f, ast.Name):
        name = f.id
        if name in scope.local_defs:
            d = scope.local_defs[name]
            return name, f.lineno, True, ({"file": modules[scope.mod]["file"], "line": d.lineno, "name": name, "container": ""} if not isinstance(d, ast.ClassDef) else None)
        if name in scope.imported:
            b = resolve_binding(scope.imported[name])
            if b is None:
                return name, f.lineno, False, None
            t = target_of_binding(b, name)
            return name, f.lineno, True, (None if t == "none" else t)
        if name in scope.locals:
            return name, f.lineno, False, None
        b = lookup(scope.mod, name)
        if b is None:
            if name in modules[scope.mod]["names"]:
                return name, f.lineno, False, None
            return name, f.lineno, True, None  # a builtin
        t = target_of_binding(b, name)
        return name, f.lineno, True, (None if t == "none" else t)
    if not isinstance(f, ast.Attribute):
        return None
    name, line, recv = f.attr, f.end_lineno, f.value
    cls = None
    lookup_from_bases = False
    if isinstance(recv, ast.Call) and isinstance(recv.func, ast.Name) and recv.func.id == "super" and scope.cls:
        cls, lookup_from_bases = scope.cls, True
    elif isinstance(recv, ast.Call) and not (isinstance(recv.func, ast.Name) and recv.func.id == "super"):
        # `C(...).m()`: a method of the class the call constructs; any other call's result is unknown.
        r = resolve_in_scope(scope, recv.func)
        if not r or r[0] != "class":
            return name, line, False, None
        cls = r[1]
    elif isinstance(recv, ast.Name) and recv.id in scope.imported:
        r = resolve_in_scope(scope, recv)
        if r is None:
            return name, line, False, None
        if r[0] == "module":
            if r[1] not in modules:
                return name, line, True, None
            b = lookup(r[1], name)
            if b is None:
                return name, line, name not in modules[r[1]]["names"], None
            t = target_of_binding(b, name)
            return name, line, True, (None if t == "none" else t)
        if r[0] != "class":
            return name, line, False, None
        cls = r[1]
    elif isinstance(recv, ast.Name) and recv.id in scope.local_types:
        cls = scope.local_types[recv.id]
        if cls is None:
            return name, line, False, None
    elif isinstance(recv, ast.Name) and recv.id in scope.locals:
        return name, line, False, None
    elif isinstance(recv, ast.Name) and module_instance(scope.mod, recv.id):
        cls = module_instance(scope.mod, recv.id)
    elif isinstance(recv, ast.Attribute) and isinstance(recv.value, ast.Name) and scope.self_name and recv.value.id == scope.self_name and scope.cls:
        cls = attr_class(scope.cls, recv.attr)
        if cls is None:
            return name, line, False, None
    else:
        r = resolve_expr(scope.mod, recv)
        if r is None:
            return name, line, False, None
        if r[0] == "module":
            if r[1] not in modules:
                return name, line, True, None  # a module outside the corpus
            b = lookup(r[1], name)
            if b is None:
                return name, line, name not in modules[r[1]]["names"], None
            t = target_of_binding(b, name)
            return name, line, True, (None if t == "none" else t)
        if r[0] != "class":
            return name, line, False, None
        cls = r[1]
    if lookup_from_bases:
        found, unknown = None, False
        for b in classes[cls]["bases"]:
            r = resolve_expr(classes[cls]["module"], b)
            m = method_of(r[1], name) if r and r[0] == "class" else "external"
            if m == "external":
                unknown = True
                break
            if m:
                found = m
                break
        if found is None:
            return name, line, not unknown, None
    else:
        found = method_of(cls, name)
        if found == "external":
            return name, line, False, None
        if found is None:
            return name, line, True, None
    (mod, cname), mline = found
    return name, line, True, {"file": modules[mod]["file"], "line": mline, "name": name, "container": cname}


def visit(mod, body, cls, func, container, parent=None):
    scope = Scope(mod, cls, func, parent)
    caller = {"name": func.name, "container": container or ""} if func else None
    file = modules[mod]["file"]
    nodes = walk_own(func) if func else (n for stmt in body for n in walk_top(stmt))
    for n in nodes:
        if isinstance(n, ast.Call):
            r = resolve_call(scope, n)
            if r:
                name, line, resolved, target = r
                out({"t": "call", "file": file, "line": line, "name": name, "resolved": resolved, "target": target, "caller": caller})
    for n in (walk_own(func) if func else (n for stmt in body for n in walk_top(stmt))):
        if isinstance(n, ast.ClassDef):
            key = (mod, n.name) if (mod, n.name) in classes and func is None and cls is None else None
            visit_class(mod, n, key, container, scope if func else None)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out({"t": "def", "file": file, "line": n.lineno, "end": n.end_lineno, "name": n.name, "container": "" if func is None else func.name, "kind": "function"})
            visit(mod, None, None, n, None, scope if func else None)
        elif func is None and isinstance(n, (ast.Assign, ast.AnnAssign)):
            for t in n.targets if isinstance(n, ast.Assign) else [n.target]:
                if isinstance(t, ast.Name):
                    out({"t": "def", "file": file, "line": t.lineno, "end": t.end_lineno, "name": t.id, "container": "", "kind": "var"})


def visit_class(mod, n, key, container, parent):
    """A class's definition, its methods (visited) and fields; a class nested in its body likewise (its
    `self` unknown: only top-level classes are in `classes`)."""
    file = modules[mod]["file"]
    out({"t": "def", "file": file, "line": n.lineno, "end": n.end_lineno, "name": n.name, "container": container or "", "kind": "class"})
    for item in n.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out({"t": "def", "file": file, "line": item.lineno, "end": item.end_lineno, "name": item.name, "container": n.name, "kind": "method"})
            visit(mod, None, key, item, n.name, parent)
        elif isinstance(item, ast.ClassDef):
            visit_class(mod, item, None, n.name, parent)
        elif isinstance(item, (ast.Assign, ast.AnnAssign)):
            for t in item.targets if isinstance(item, ast.Assign) else [item.target]:
                if isinstance(t, ast.Name):
                    out({"t": "def", "file": file, "line": t.lineno, "end": t.end_lineno, "name": t.id, "container": n.name, "kind": "field"})


def walk_top(stmt):
    """Module-level code outside functions and classes (the classes and functions themselves are yielded, not entered)."""
    stack = [stmt]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(n))


for mod, m in modules.items():
    visit(mod, m["tree"].body, None, None, None)
