"""Flatten a Python file's doctests into one program that prints every result.

Used by scripts/corpus (docs/testing.md, "Third-party Python: the corpus
run"); this is test tooling and runs under CPython, never in the product.

    python3 flatten.py FILE...

prints on stdout one JSON object per FILE, one a line:

    {"units": [{"kind": "module" | "example", "src": "..."}, ...],
     "examples": N, "uses": ["input", ...]}

The module units are the file's top-level statements (each with the
comments and blank lines before the next one), minus `if __name__ ==
"__main__":` blocks. Each doctest example becomes one example unit that
prints a marker line `#k`, then the example's result as doctest shows it
(`repr` of a non-None expression value) or, when it raises, `! TypeName`
(`! CAP` for the PVM's 4096-bit int cap).
Joined, the units are a program whose output both interpreters can be
compared on; apart, they are what the minimizer removes.

"uses" names the calls the harness cannot compare (input, which needs a
console; timeit, which measures the wall clock) when they appear outside a
main guard.
"""

import ast
import doctest
import json
import sys
import textwrap


def docstrings(tree):
    """Every docstring of the module, its classes and functions, in
    source order (doctest's order of discovery does not matter here: the
    examples of one file share one namespace in the flattened program)."""
    out = []

    def visit(node):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            d = ast.get_docstring(node, clean=False)
            if d:
                out.append(d)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def is_main_guard(node):
    """if __name__ == "__main__": (either operand order)."""
    if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare)):
        return False
    sides = [node.test.left] + list(node.test.comparators)
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides)


def first_line(node):
    """The 0-based first line of a statement, decorators included."""
    lines = [node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]
    return min(lines) - 1


def module_units(src, tree):
    """The file's top-level statements as text, main guards left out."""
    lines = src.splitlines()
    starts = []
    for node in tree.body:
        start = first_line(node)
        if starts and starts[-1][0] == start:
            starts[-1][1].append(node)  # a; b on one line
        else:
            starts.append((start, [node]))
    units = []
    for i, (start, nodes) in enumerate(starts):
        if any(is_main_guard(n) for n in nodes):
            continue
        end = starts[i + 1][0] if i + 1 < len(starts) else len(lines)
        if i == 0:
            start = 0  # keep leading comments (encoding lines, licences)
        text = "\n".join(lines[start:end]).rstrip()
        if text:
            units.append({"kind": "module", "src": text})
    return units


# The printed name of an example's exception; the PVM's 4096-bit int cap
# (an OverflowError CPython does not have) prints as CAP.
ERR = "'CAP' if type(__e) is OverflowError and '-bit limit' in str(__e) else type(__e).__name__"


def example_unit(k, source):
    """One doctest example as a unit printing `#k` and its outcome; None
    when the example is not valid Python on its own."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        expr = ast.get_source_segment(source, tree.body[0].value) or ast.unparse(tree.body[0].value)
        code = f"__r = ({expr}\n)\nif __r is not None:\n    print(repr(__r))"
    else:
        code = source.rstrip("\n")
    body = textwrap.indent(code, "    ")
    return {
        "kind": "example",
        "src": f"print('#{k}')\ntry:\n{body}\nexcept Exception as __e:\n    print('!', {ERR})",
    }


class Uses(ast.NodeVisitor):
    """Collects calls of input() and any use of timeit outside main guards."""

    def __init__(self):
        self.found = set()

    def visit_If(self, node):
        if is_main_guard(node):
            return
        self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id == "input":
            self.found.add("input")
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id == "timeit":
            self.found.add("timeit")

    def visit_alias(self, node):
        if node.name.split(".")[0] == "timeit":
            self.found.add("timeit")


def flatten(src):
    """The flattened program of src as the JSON-able dict described above."""
    tree = ast.parse(src)
    units = module_units(src, tree)
    parser = doctest.DocTestParser()
    k = 0
    for d in docstrings(tree):
        try:
            examples = parser.get_examples(d)
        except ValueError:
            continue  # a malformed docstring: doctest would refuse it too
        for ex in examples:
            unit = example_unit(k + 1, ex.source)
            if unit is not None:
                k += 1
                units.append(unit)
    uses = Uses()
    uses.visit(tree)
    return {"units": units, "examples": k, "uses": sorted(uses.found)}


def main():
    for path in sys.argv[1:]:
        try:
            with open(path, encoding="utf-8") as f:
                out = flatten(f.read())
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError) as e:
            out = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(out))


if __name__ == "__main__":
    main()
