import a
import a.b.c
import a as b
import a.b as c, d, e.f as g
from a import b
from a import b as c, d
from a.b import (c, d as e,)
from . import x
from .. import y
from .mod import z
from ...pkg.sub import w
from .... import v
from a import *
from . import (p,
    q)
