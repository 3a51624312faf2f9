a = 1; b = 2
x; y; z;
if a: b; c;
import os; del os
