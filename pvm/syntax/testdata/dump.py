"""Write the golden ASTs for the parser tests: for every NAME.py here,
NAME.py.ast holds CPython 3.11's

    ast.dump(ast.parse(source), include_attributes=True, indent=1)

and syntax.Dump(mod, true, 1) must print the same. Run with python3 3.11
from anywhere: python3 pvm/syntax/testdata/dump.py
"""
import ast
import pathlib
import sys

assert sys.version_info[:2] == (3, 11), "the goldens are CPython 3.11's"
here = pathlib.Path(__file__).resolve().parent
for path in sorted(here.glob("*.py")):
    if path.name == "dump.py":
        continue
    tree = ast.parse(path.read_bytes(), filename=path.name)
    text = ast.dump(tree, include_attributes=True, indent=1) + "\n"
    path.with_name(path.name + ".ast").write_text(text, encoding="utf-8")
