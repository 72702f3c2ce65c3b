# Ground truth for scripts/bench-nl.ts from Python's own parser: every function, method, class and
# module or class attribute of the .py files under a folder, with its definition line, its span and
# its docstring (one JSON object a line). Usage: python3 python-docs.py ROOT
import ast
import json
import os
import sys

root = sys.argv[1]


def emit(path, node, container, kind):
    doc = ast.get_docstring(node) or ''
    start = min([d.lineno for d in getattr(node, 'decorator_list', [])] + [node.lineno])
    print(json.dumps({
        'file': os.path.relpath(path, root), 'name': node.name, 'container': container, 'kind': kind,
        'start': start, 'line': node.lineno, 'end': node.end_lineno, 'docStart': start, 'doc': doc,
    }))


def walk(path, body, container, module=False):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            emit(path, node, container, 'method' if container else 'function')
            walk(path, node.body, None)
        elif isinstance(node, ast.ClassDef):
            emit(path, node, container, 'class')
            walk(path, node.body, node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and (container is not None or module):
            # Module and class attributes are declarations too (not asked about).
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if isinstance(target, ast.Name):
                    print(json.dumps({
                        'file': os.path.relpath(path, root), 'name': target.id, 'container': container, 'kind': 'attribute',
                        'start': node.lineno, 'line': node.lineno, 'end': node.end_lineno, 'docStart': node.lineno, 'doc': '',
                    }))
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            for part in (getattr(node, 'body', []), getattr(node, 'orelse', []), getattr(node, 'finalbody', [])):
                walk(path, part, container, module)
            for handler in getattr(node, 'handlers', []):
                walk(path, handler.body, container, module)


for folder, _, names in os.walk(root):
    for name in sorted(names):
        if not name.endswith('.py'):
            continue
        path = os.path.join(folder, name)
        with open(path, 'rb') as f:
            source = f.read()
        try:
            tree = ast.parse(source, path)
        except SyntaxError:
            continue
        walk(path, tree.body, None, True)
